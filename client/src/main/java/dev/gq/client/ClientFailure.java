package dev.gq.client;

/**
 * Why the client stops without an exit frame: a one-line message for stderr (after "gq: "), or
 * none when there is nothing to say (stdout was closed), and the exit code. No stack trace: it is
 * an answer for the user, not a bug report.
 */
final class ClientFailure extends Exception {
  private final int code;

  ClientFailure(String message, int code) {
    super(message, null, false, false);
    this.code = code;
  }

  ClientFailure(String message) {
    this(message, 1);
  }

  int code() {
    return code;
  }
}
