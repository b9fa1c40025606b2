package dev.gq.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq daemon stop}: asks the daemon to stop after this request. Every job runs under its own
 * shim, detached from the daemon (setsid), so jobs keep running; the next daemon finds them again.
 */
@Command(name = "stop", description = "Stop the daemon; running jobs keep running.")
final class DaemonStopCommand implements Callable<Integer> {
  private final Invocation inv;

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
