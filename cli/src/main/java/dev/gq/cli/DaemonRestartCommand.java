package dev.gq.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq daemon restart}: stops the daemon (running jobs keep running) and starts a new one,
 * which finds the jobs again. The daemon does the stopping; the client waits for it to be gone and
 * starts the new one.
 */
@Command(name = "restart", description = "Stop the daemon and start a new one; running jobs keep running.")
final class DaemonRestartCommand implements Callable<Integer> {
  private final Invocation inv;

  DaemonRestartCommand(Invocation inv) {
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
