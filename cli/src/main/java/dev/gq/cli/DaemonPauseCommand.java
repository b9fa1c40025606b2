package dev.gq.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq daemon pause|resume [--group G]}: stops or restarts the starting of waiting jobs, for the
 * whole queue or one group. Running jobs are never touched. Both survive daemon restarts (they are
 * events in the journal).
 */
@Command(description = "Pause (or resume) starting waiting jobs: the whole queue, or one --group. Running jobs are untouched.")
final class DaemonPauseCommand implements Callable<Integer> {
  private final Invocation inv;
  private final boolean pause;

  @Option(names = "--group", paramLabel = "G", description = "Only this group (its waiting jobs show as held).")
  String group;

  DaemonPauseCommand(Invocation inv, boolean pause) {
    this.inv = inv;
    this.pause = pause;
  }

  @Override
  public Integer call() throws ApiException {
    String line = pause ? inv.api().pause(group) : inv.api().resume(group);
    inv.io().out().println(line);
    return ExitCode.OK;
  }
}
