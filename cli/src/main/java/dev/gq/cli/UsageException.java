package dev.gq.cli;

/**
 * The command line itself is wrong (a bad value, a missing command, a malformed range). The one
 * error handler prints the message with a pointer to the command's help and exits with
 * {@link ExitCode#USAGE}.
 */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message, null, false, false);
  }
}
