package dev.gq.cli;

import dev.gq.api.ApiException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq daemon stop}: asks the daemon to stop after this request. Every job runs under its own
 * shim, detached from the daemon (setsid), so jobs keep running; the next daemon finds them again.
 * The client then waits until the daemon has exited, as {@code systemctl stop} does, unless told
 * {@code --no-wait}; the option is declared here so that the daemon accepts it and lists it.
 */
@Command(name = "stop", description = "Stop the daemon; running jobs keep running.")
final class DaemonStopCommand implements Callable<Integer> {
  /** How long the client waits for the stopped daemon to exit (main.c EXIT_TIMEOUT_MS). */
  static final int EXIT_TIMEOUT_SECONDS = 30;

  private final Invocation inv;

  @Option(names = "--wait", negatable = true, defaultValue = "true", fallbackValue = "true",
      description = "Return only once the daemon has exited, its database closed (the default; at most "
          + EXIT_TIMEOUT_SECONDS + " s, then exit 1 with one line). --no-wait returns once it has been asked.")
  boolean waitForExit = true;

  DaemonStopCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    inv.io().out().println("daemon stopping; running jobs keep running");
    inv.io().out().flush();
    inv.api().shutdown();
    return ExitCode.OK;
  }
}
