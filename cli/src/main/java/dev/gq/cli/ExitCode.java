package dev.gq.cli;

/**
 * The exit codes every command returns, named once: success (also a skipped duplicate-key
 * submit), a refused or failed request, and a usage error. {@code gq wait} is the exception that
 * passes a job's own exit code through.
 */
public final class ExitCode {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;

  private ExitCode() {}
}
