package dev.gq.cli;

import dev.gq.api.ApiException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq daemon pause|resume [--group G]}: the earlier names of {@code gq hold --all|--group G}
 * and {@code gq release --all|--group G}, kept so scripts go on working. Hidden from help and
 * completion; each does what the new command does and names it in one line on stderr.
 */
@Command(hidden = true, description = "Earlier name of 'gq hold --all' / 'gq release --all'.")
final class DaemonPauseCommand implements Callable<Integer> {
  private final Invocation inv;
  private final boolean hold;

  @Option(names = "--group", paramLabel = "G", description = "Only this group.")
  String group;

  DaemonPauseCommand(Invocation inv, boolean hold) {
    this.inv = inv;
    this.hold = hold;
  }

  @Override
  public Integer call() throws ApiException {
    String now = "gq " + (hold ? "hold" : "release") + (group == null ? " --all" : " --group " + group);
    inv.io().err().println("'gq daemon " + (hold ? "pause" : "resume") + "' is now '" + now + "'; it does the same");
    String line = hold ? inv.api().holdQueue(group) : inv.api().releaseQueue(group);
    inv.io().out().println(line);
    return ExitCode.OK;
  }
}
