package dev.gq.cli;

import dev.gq.api.GqApi;
import java.io.PrintWriter;

/**
 * What one command run works with: the caller's terminal and the daemon's API, handed to every
 * command object of that request's tree. A tree built ahead of its request ({@link CommandTrees})
 * holds one not yet bound, bound once when a request takes the tree; it is never bound again.
 */
final class Invocation {
  private Io io;
  private GqApi api;
  private boolean bound;
  private final CommandRunner runner;

  Invocation(Io io, GqApi api, CommandRunner runner) {
    this.io = io;
    this.api = api;
    this.bound = true;
    this.runner = runner;
  }

  private Invocation(CommandRunner runner) {
    this.runner = runner;
  }

  /** One for a tree built before its request: nothing can run until {@link #bind}. */
  static Invocation unbound(CommandRunner runner) {
    return new Invocation(runner);
  }

  /** Gives this invocation its request's terminal and API; a second binding is a mistake in gq. */
  void bind(Io io, GqApi api) {
    if (bound) throw new IllegalStateException("a command tree serves one request only");
    this.io = io;
    this.api = api;
    this.bound = true;
  }

  Io io() {
    return io;
  }

  GqApi api() {
    return api;
  }

  /** The command tree, for a command that describes or runs other commands. */
  CommandRunner runner() {
    return runner;
  }

  /**
   * The caller's standard output for a command that prints text others wrote: each control
   * character escaped ({@link EscapingWriter}), so that no field of it reaches the terminal raw.
   */
  PrintWriter out() {
    return EscapingWriter.of(io.out());
  }

  /** The caller's standard error, escaped as {@link #out()}. */
  PrintWriter err() {
    return EscapingWriter.of(io.err());
  }
}
