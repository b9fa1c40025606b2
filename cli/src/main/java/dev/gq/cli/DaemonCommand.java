package dev.gq.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq daemon}: the parent of {@code status}, {@code stop}, {@code start} and {@code run}.
 * Alone it is a usage error. The client answers {@code start}, {@code run}, and {@code status} or
 * {@code stop} without a daemon itself; the tree only sees them when a daemon answers.
 */
@Command(name = "daemon", description = "Show, stop, start or restart the gq daemon, or install it as a systemd user unit.")
final class DaemonCommand implements Callable<Integer> {
  @Override
  public Integer call() {
    throw new UsageException("say what to do: gq daemon status, start, stop, restart, run, install or uninstall");
  }
}
