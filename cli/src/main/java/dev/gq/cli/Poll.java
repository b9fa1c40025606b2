package dev.gq.cli;

import dev.gq.core.job.Durations;
import java.io.PrintWriter;
import java.time.Duration;

/**
 * The pace of a command that waits ({@code gq wait}): one check every {@value #MILLIS} ms until a
 * deadline, stopping when the caller has gone (Ctrl-C) or the daemon stops the thread. Also keeps
 * the one progress line that is rewritten in place on a terminal.
 */
final class Poll {
  static final long MILLIS = 200;
  static final int TIMED_OUT = 124;
  static final int GONE = 130;
  private final Io io;
  private final Duration limit;
  private final long deadline;
  private int shownLength = -1;
  private String shown;
  private boolean timedOut;

  Poll(Io io, Duration limit) {
    this.io = io;
    this.limit = limit;
    this.deadline = limit == null ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos();
  }

  /**
   * Sleeps until the next check; false when the wait must end (deadline passed, caller gone). The
   * first call makes the command a stream ({@link Io#beginStream()}).
   */
  boolean next() {
    io.beginStream();
    if (io.closed()) return false;
    long left = deadline - System.nanoTime();
    if (left <= 0) {
      timedOut = true;
      return false;
    }
    try {
      Thread.sleep(Math.min(MILLIS, Math.max(1, left / 1_000_000)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    return !io.closed();
  }

  /** The exit code once {@link #next} said stop: 124 with one line naming {@code what} after a timeout. */
  int stopped(String what) {
    endProgress();
    if (!timedOut) return GONE;
    io.err().println("gq: timed out after " + Durations.format(limit) + ": " + what);
    return TIMED_OUT;
  }

  /**
   * Rewrites the progress line (terminals only; null: nothing to show), cut to one column less than
   * the terminal's width: a line as wide as the terminal wraps, and "\r" then rewrites only its last
   * row, adding a row at every rewrite.
   */
  void progress(String line) {
    if (line == null) return;
    int room = Math.max(10, (io.width() > 0 ? io.width() : 80) - 1);
    if (line.length() > room) line = line.substring(0, room - 1) + "\u2026";
    if (line.equals(shown)) return;
    shown = line;
    PrintWriter out = io.out();
    String pad = shownLength > line.length() ? " ".repeat(shownLength - line.length()) : "";
    out.print("\r" + line + pad);
    out.flush();
    shownLength = line.length();
  }

  /** Ends the progress line, if one is shown, so later output starts on a line of its own. */
  void endProgress() {
    if (shownLength < 0) return;
    io.out().println();
    shownLength = -1;
    shown = null;
  }
}
