package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq recover}: after a reboot, queues again every INTERRUPTED job that is the newest
 * attempt of its lineage, as {@code gq retry} would.
 */
@Command(name = "recover", description = "Queue again every job a reboot interrupted, each resuming from its newest checkpoint if it left one.")
final class RecoverCommand implements Callable<Integer> {
  private final Invocation inv;

  RecoverCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    GqApi.RetryReport report = inv.api().recover();
    if (report.retried().isEmpty() && report.skipped().isEmpty()) {
      inv.io().out().println("No interrupted jobs to retry.");
      return ExitCode.OK;
    }
    RetryText.print(report, inv.io().out());
    return ExitCode.OK;
  }
}
