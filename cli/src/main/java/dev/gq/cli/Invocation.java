package dev.gq.cli;

/**
 * What one command run works with: the caller's terminal and the daemon's API, handed to every
 * command object of that request's tree. A tree built ahead of its request ({@link CommandTrees})
 * holds one not yet bound, bound once when a request takes the tree; it is never bound again.
 */
final class Invocation {
  private Io io;
  private GqApi api;
  private boolean bound;

  Invocation(Io io, GqApi api) {
    this.io = io;
    this.api = api;
    this.bound = true;
  }

  private Invocation() {}

  /** One for a tree built before its request: nothing can run until {@link #bind}. */
  static Invocation unbound() {
    return new Invocation();
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
}
