package dev.gq.api;

/** A request the daemon refused or could not do; the message is one line for the user. */
public final class ApiException extends Exception {
  public ApiException(String message) {
    super(message);
  }
}
