package dev.gq.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq run [-g N] [OPTIONS] CMD...} (and the shortcut {@code gq -g N CMD...}): queues a
 * command for N whole GPUs. gq's options come first; from the first word that is not one of them,
 * everything is the command, exactly as typed (a leading {@code --} is dropped once).
 */
@Command(name = "run", description = "Queue a command for N whole GPUs (-g 0: no GPU).")
final class RunCommand implements Callable<Integer> {
  private final Invocation inv;

  @Option(names = {"-g", "--gpus"}, paramLabel = "N", defaultValue = "1", description = "Whole GPUs to give the job (default: 1).")
  int gpus;

  @Mixin
  SubmitOptions options = new SubmitOptions();

  @Parameters(paramLabel = "CMD", arity = "0..*", description = "The command and its arguments.")
  List<String> command = new ArrayList<>();

  RunCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    checkCommand(command);
    if (gpus < 0) throw new UsageException("-g/--gpus must be 0 or more, not " + gpus);
    String name = Labels.checkOption("--name", options.name);
    String group = Labels.checkOption("--group", options.group);
    String key = Labels.checkOption("--key", options.key);
    Scheduling sched = options.scheduling(inv);
    return new Submitter(inv).submit(command, gpus, name, group, key, sched, options);
  }

  static void checkCommand(List<String> argv) {
    if (argv.isEmpty()) {
      throw new UsageException("a command is required after gq's own options, as in 'gq -g 1 python train.py'");
    }
    if (argv.get(0).isEmpty()) throw new UsageException("the command name must not be empty");
    for (int i = 0; i < argv.size(); i++) {
      if (argv.get(i).indexOf('\0') >= 0) {
        throw new UsageException("argument " + (i + 1) + " of the command contains a NUL byte");
      }
    }
  }
}
