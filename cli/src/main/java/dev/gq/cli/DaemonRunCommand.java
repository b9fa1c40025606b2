package dev.gq.cli;

import dev.gq.api.ApiException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq daemon run}: the launcher runs the daemon in the foreground (for systemd or
 * debugging). Reaching this command means a daemon already serves this user, so a second one
 * must not start.
 */
@Command(name = "run", description = "Run the daemon in the foreground (for systemd or debugging).")
final class DaemonRunCommand implements Callable<Integer> {
  private final Invocation inv;

  DaemonRunCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    long pid = inv.api().daemonInfo().pid();
    throw new RefusedException("gq daemon is already running (pid " + pid + "); stop it first with 'gq daemon stop'");
  }
}
