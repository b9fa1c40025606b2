package dev.gq.mcp;

import dev.gq.mcp.LineInput.End;
import dev.gq.mcp.LineInput.Line;
import dev.gq.mcp.LineInput.NotUtf8;
import dev.gq.mcp.LineInput.Refused;
import dev.gq.mcp.LineInput.Text;
import dev.gq.mcp.LineInput.TooLong;
import dev.gq.mcp.McpSession.Answer;
import dev.gq.mcp.McpSession.Call;
import dev.gq.mcp.McpSession.Nothing;
import dev.gq.mcp.McpSession.Step;
import dev.gq.protocol.LineTooLongException;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * The read loop of {@code gq mcp}: reads standard input a line at a time and answers each line on
 * the output; whatever a line holds, the loop answers it (or, for a notification, stays silent)
 * and reads on. Tool calls run one at a time, in the order sent, on a thread of their own, so that
 * the loop keeps reading (and answering pings) while gq works. At the end of the input the calls
 * already read get up to {@code grace} to be answered; then {@link #serve} returns, whether or not
 * a gq command is still waiting on a daemon that does not answer.
 */
final class StdioServer {
  /** The longest line read: the daemon's own limit on a request. */
  static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

  private final McpSession session;
  private final Consumer<String> out;
  private final PrintStream err;
  private final Duration grace;
  private final ExecutorService calls = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "gq-mcp-call");
    t.setDaemon(true); // a call stuck on gq never holds the process up
    return t;
  });
  private int open;
  private boolean stopped;

  /** {@code out} writes one line (and must be safe to call from two threads). */
  StdioServer(McpSession session, Consumer<String> out, PrintStream err, Duration grace) {
    this.session = session;
    this.out = out;
    this.err = err;
    this.grace = grace;
  }

  /** Serves until {@code in} ends; returns the exit code: 0, or 1 when calls were left unanswered. */
  int serve(LineInput in) throws InterruptedException {
    while (true) {
      Line line;
      try {
        line = in.next();
      } catch (IOException e) {
        err.println("gq mcp: cannot read standard input (" + e.getMessage() + "); stopping");
        line = new End();
      }
      switch (line) {
        case End e -> {
          return finish();
        }
        case TooLong t -> out.accept(JsonRpc.error(null, JsonRpc.INVALID_REQUEST, "invalid request: a line longer than "
            + LineTooLongException.describe(t.maxBytes()) + " was skipped; send smaller messages"));
        case NotUtf8 n -> out.accept(JsonRpc.error(null, JsonRpc.PARSE_ERROR, "parse error: the line is not UTF-8"));
        case Refused r -> out.accept(JsonRpc.error(null, JsonRpc.SERVER_BUSY, r.message()));
        case Text t -> handle(t);
      }
    }
  }

  /** Answers one line; what the line holds is given back once its answer is written. */
  private void handle(Text t) {
    Step step;
    try {
      step = session.step(t.text());
    } catch (RuntimeException e) {
      t.held().close();
      throw e;
    }
    switch (step) {
      case Answer a -> {
        out.accept(a.line());
        t.held().close();
      }
      case Nothing n -> t.held().close();
      case Call c -> {
        opened();
        calls.execute(() -> {
          try {
            answered(answer(c));
          } finally {
            t.held().close();
          }
        });
      }
    }
  }

  private String answer(Call c) {
    try {
      return session.answer(c);
    } catch (ServerBusy e) {
      return JsonRpc.error(c.id(), JsonRpc.SERVER_BUSY, e.getMessage());
    } catch (RuntimeException e) {
      return JsonRpc.error(c.id(), JsonRpc.INTERNAL_ERROR, "internal error: " + McpSession.clip(c.tool())
          + " failed inside gq mcp (" + e.getClass().getSimpleName() + "); the server keeps running");
    }
  }

  private synchronized void opened() {
    open++;
  }

  /** Writes a call's answer, unless the server has given up on it: then it comes too late to be read. */
  private synchronized void answered(String line) {
    open--;
    notifyAll();
    if (!stopped) out.accept(line);
  }

  /** Waits up to the grace for the calls read before the end; says in one line when some are left. */
  private synchronized int finish() throws InterruptedException {
    long deadline = System.nanoTime() + grace.toNanos();
    for (long left = grace.toNanos(); open > 0 && left > 0; left = deadline - System.nanoTime()) {
      wait(Math.max(1, left / 1_000_000));
    }
    stopped = true;
    calls.shutdown();
    if (open == 0) return 0;
    err.println("gq mcp: the input ended; " + open + (open == 1 ? " tool call" : " tool calls")
        + " still waiting on gq after " + grace.toSeconds() + " s left unanswered; is the daemon answering? see 'gq daemon status'");
    return 1;
  }
}
