package dev.gq.actors.daemon;

/** A reason the daemon cannot start, as one line for the user; {@link DaemonMain} prints it and exits. */
final class Startup extends Exception {
  Startup(String message) {
    super(message);
  }
}
