package dev.gq.core.launch;

/**
 * The job could not be started; the message is one line for the user (e.g. "working directory ...
 * no longer exists"). {@link #exitCode} is the status a shell reports for the same failure (127
 * when the command cannot be run), or null when there is none.
 */
public final class LaunchException extends Exception {
  private final Integer exitCode;

  public LaunchException(String message) {
    this(message, (Integer) null);
  }

  public LaunchException(String message, Integer exitCode) {
    super(message);
    this.exitCode = exitCode;
  }

  public LaunchException(String message, Throwable cause) {
    super(message, cause);
    this.exitCode = null;
  }

  public Integer exitCode() {
    return exitCode;
  }
}
