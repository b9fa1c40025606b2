package dev.gq.client;

import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

/**
 * Answers the daemon's prompts from the user's terminal: stdin when it is a terminal, else the
 * controlling terminal ({@code /dev/tty}). The question goes to stderr when that is a terminal,
 * else to the controlling terminal. With no terminal at all the answer is null (as at EOF), and
 * the daemon decides what that means.
 */
final class Terminal {
  private final InputStream stdin;
  private final OutputStream stderr;
  private final ClientCall invocation;
  private final String ttyPath;

  Terminal(InputStream stdin, OutputStream stderr, ClientCall invocation, String ttyPath) {
    this.stdin = stdin;
    this.stderr = stderr;
    this.invocation = invocation;
    this.ttyPath = ttyPath;
  }

  /** Shows {@code question} and returns the line typed, without its newline; null at EOF. */
  String ask(String question) throws IOException {
    if (invocation.stdinTty()) {
      show(stderr, question);
      return readLine(stdin);
    }
    RandomAccessFile tty;
    try {
      tty = new RandomAccessFile(ttyPath, "rw");
    } catch (IOException noTerminal) {
      return null;
    }
    try (tty) {
      if (invocation.stderrTty()) show(stderr, question);
      else tty.write(question.getBytes(StandardCharsets.UTF_8));
      return readLine(new FileInputStream(tty.getFD()));
    }
  }

  private static void show(OutputStream out, String question) throws IOException {
    out.write(question.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  /** Reads byte by byte so that nothing after the line is consumed. */
  static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream(64);
    int b;
    while ((b = in.read()) >= 0 && b != '\n') line.write(b);
    if (b < 0 && line.size() == 0) return null;
    String s = line.toString(StandardCharsets.UTF_8);
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }
}
