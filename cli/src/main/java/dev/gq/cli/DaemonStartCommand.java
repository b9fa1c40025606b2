package dev.gq.cli;

import dev.gq.api.ApiException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq daemon start}: the client starts a daemon when none answers; reaching this command
 * means one already runs, which is what the user wanted.
 */
@Command(name = "start", description = "Start the daemon in the background (the client does this when needed).")
final class DaemonStartCommand implements Callable<Integer> {
  private final Invocation inv;

  DaemonStartCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    inv.io().out().println("gq daemon is already running (pid " + inv.api().daemonInfo().pid() + ")");
    return ExitCode.OK;
  }
}
