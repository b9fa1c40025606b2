package dev.gq.cli;

/**
 * A request the command refuses before (or instead of) asking the daemon: a script that does not
 * exist, a malformed directive, a working directory that is gone. The message is one line for the
 * user; the error handler prints it and exits with {@link ExitCode#FAILED}.
 */
public final class RefusedException extends RuntimeException {
  public RefusedException(String message) {
    super(message, null, false, false);
  }
}
