package dev.gq.cli;

import dev.gq.mcp.GqRunner;
import dev.gq.mcp.McpServer;
import dev.gq.mcp.ServerBusy;
import dev.gq.protocol.RequestMemory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq mcp}: the Model Context Protocol server for AI assistants, served here in the daemon on
 * the standard input the client streams to it (the native client), so that no JVM starts for it.
 * Each tool runs its gq command in-process through this command tree, with the caller's
 * environment and directory, as the gq command would send it; the answers are those of the server
 * the launcher starts in a JVM of its own where this path cannot be taken (dev.gq.mcp), which runs
 * the gq command for each tool.
 */
@Command(name = "mcp", description = "Serve AI assistants: a Model Context Protocol server on stdin/stdout"
    + " (register the command gq with the arguments [\"mcp\"]); its write tools act only with confirm: true.",
    footer = {"", "The session runs inside the daemon (started when none answers), so it answers at once; where the"
        + " daemon cannot serve it (none can be reached, another gq version runs) the same server runs in a JVM of"
        + " its own. GQ_MCP_SERVER=jvm always takes that way. A daemon restart during a session answers the"
        + " requests it had not answered with an error, and the session goes on."})
final class McpCommand implements Callable<Integer> {
  /** A first session's opening, for {@link #warm}. */
  private static final String OPENING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
      + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"gq\",\"version\":\"0\"}}}\n"
      + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n";

  private final Invocation inv;
  private final Object writing = new Object();
  /** What the tool call on this thread holds until its answer is written. */
  private final ThreadLocal<RequestMemory.Charge> answering = new ThreadLocal<>();

  McpCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws InterruptedException {
    Io io = inv.io();
    InputStream in = io.streamStdin();
    return McpServer.serve(in, this::answer, notes(io), this::run, io.cwd().toString(), io.memory());
  }

  /** Loads what a first session needs (the server, its tools and their schemas), once, when the daemon starts. */
  static void warm() {
    try {
      McpServer.serve(new ByteArrayInputStream(OPENING.getBytes(StandardCharsets.UTF_8)), line -> { },
          new PrintStream(OutputStream.nullOutputStream()), (argv, cwd) -> new GqRunner.Outcome(0, "", ""), "/");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * One answer a line; from two threads (the read loop and the tool calls), never interleaved. A tool
   * call's output is given back to the daemon's budget once its answer is written.
   */
  private void answer(String line) {
    try {
      synchronized (writing) {
        inv.io().out().print(line);
        inv.io().out().print('\n');
        inv.io().out().flush();
      }
    } finally {
      RequestMemory.Charge held = answering.get();
      answering.remove();
      if (held != null) held.close();
    }
  }

  /** Runs one tool's gq command; output the daemon has no room for makes the call busy ({@link ServerBusy}). */
  private GqRunner.Outcome run(List<String> argv, String cwd) {
    Io io = inv.io();
    RequestMemory.Charge held = io.memory().charge();
    answering.set(held);
    CapturedIo captured = new CapturedIo(io.env(), Path.of(cwd), io.width(), held);
    int code = inv.runner().run(argv, captured, inv.api());
    if (captured.refused() != null) throw new ServerBusy(captured.refused() + " (the answer of " + argv.get(0) + " is too large now)");
    return new GqRunner.Outcome(code, captured.stdout(), captured.stderr());
  }

  /** The server's own lines for the client's standard error, each sent as it is printed. */
  private static PrintStream notes(Io io) {
    ByteArrayOutputStream line = new ByteArrayOutputStream() {
      @Override public synchronized void flush() {
        io.err().print(toString(StandardCharsets.UTF_8));
        io.err().flush();
        reset();
      }
    };
    return new PrintStream(line, true, StandardCharsets.UTF_8);
  }
}
