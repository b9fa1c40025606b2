package dev.gq.mcp;

import dev.gq.protocol.RequestMemory;
import java.io.InputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The {@code gq mcp} server over one pair of streams, wherever it runs: in a JVM of its own on
 * standard input and output ({@link McpMain}), or inside the daemon on the input a client streams
 * to it. The same tools and answers in both; only the {@link GqRunner} differs (the gq command, the
 * native client, run for each call, or the daemon's command tree in-process).
 */
public final class McpServer {
  /** How long the calls read before the input ended may still take to be answered. */
  static final Duration GRACE = Duration.ofSeconds(5);

  private McpServer() {}

  /**
   * Serves the JSON-RPC messages read from {@code in} until it ends, writing each answer as one
   * line to {@code out} (which must be safe to call from two threads) and the server's own notes to
   * {@code err}; the tools run gq through {@code runner} from {@code cwd}. Returns the exit code:
   * 0, or 1 when tool calls read before the end were left unanswered after {@link #GRACE}.
   */
  public static int serve(InputStream in, Consumer<String> out, PrintStream err, GqRunner runner, String cwd)
      throws InterruptedException {
    return serve(in, out, err, runner, cwd, RequestMemory.UNBOUNDED);
  }

  /** As above, with each long line charged to {@code memory} until it is answered (the daemon's shared budget). */
  public static int serve(InputStream in, Consumer<String> out, PrintStream err, GqRunner runner, String cwd,
      RequestMemory memory) throws InterruptedException {
    GqTools tools = new GqTools(runner, cwd, Instant::now);
    StdioServer server = new StdioServer(new McpSession(tools), out, err, GRACE);
    return server.serve(new LineInput(in, StdioServer.MAX_LINE_BYTES, memory));
  }
}
