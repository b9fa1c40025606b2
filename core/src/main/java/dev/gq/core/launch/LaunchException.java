package dev.gq.core.launch;

/** The job could not be started; the message is one line for the user (e.g. "working directory ... no longer exists"). */
public final class LaunchException extends Exception {
  public LaunchException(String message) {
    super(message);
  }

  public LaunchException(String message, Throwable cause) {
    super(message, cause);
  }
}
