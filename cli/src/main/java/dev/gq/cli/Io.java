package dev.gq.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The invoking terminal, as the client described it: its output streams (frames back to the
 * client), whether stdin/stdout are terminals, the width, the caller's cwd and environment, and a
 * way to ask a yes/no question. {@link #closed()} turns true when the client has gone (Ctrl-C), so
 * streaming commands stop.
 */
public interface Io {
  PrintWriter out();

  PrintWriter err();

  boolean stdinTty();

  boolean stdoutTty();

  int width();

  Path cwd();

  Map<String, String> env();

  /** Asks the user; empty when there is no terminal to ask or the client went away. */
  Optional<String> prompt(String question);

  boolean closed();
}
