package dev.gq.cli;

import dev.gq.core.job.PrintableText;
import java.io.PrintWriter;

/**
 * The output of a command that prints what others wrote (another user's lease or share line, a
 * process's command line, a job's name, a policy file): every character {@link PrintableText}
 * keeps off the terminal is written escaped, whatever field it came in, and only newlines pass.
 * Wraps the caller's stream; flushing and closing reach it.
 */
final class EscapingWriter extends PrintWriter {
  private final PrintWriter to;

  private EscapingWriter(PrintWriter to) {
    super(to, true);
    this.to = to;
  }

  /** {@code to} escaped; {@code to} itself when it already is. */
  static PrintWriter of(PrintWriter to) {
    return to instanceof EscapingWriter ? to : new EscapingWriter(to);
  }

  @Override public void write(int c) {
    write(String.valueOf((char) c), 0, 1);
  }

  @Override public void write(char[] buf, int off, int len) {
    write(new String(buf, off, len), 0, len);
  }

  @Override public void write(String s, int off, int len) {
    to.write(PrintableText.escapeLines(s.substring(off, off + len)));
  }

  @Override public void flush() {
    to.flush();
  }
}
