package dev.gq.actors.daemon;

/**
 * Notes about where the daemon runs that a user should know, shown by `gq daemon status`.
 */
final class Lifecycle {
  private Lifecycle() {}

  /** A warning when jobs could be killed with the daemon's login session, or null. */
  static String warning() {
    return null;
  }
}
