package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.ledger.CommandFault;
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

  /** Checks a command given on the command line by the one rule for commands; a fault is a usage error. */
  static void checkCommand(List<String> argv) {
    CommandFault fault = CommandFault.of(argv);
    if (fault != null) throw new UsageException(problem(fault));
  }

  /** Checks a batch line's command by the one rule for commands, in the command line's words. */
  static void checkLineCommand(List<String> argv) {
    CommandFault fault = CommandFault.of(argv);
    if (fault != null) throw new IllegalArgumentException(problem(fault));
  }

  /** The CLI's words for a command's fault, on the command line or a batch line. */
  static String problem(CommandFault fault) {
    return switch (fault.kind()) {
      case MISSING -> "a command is required after gq's own options, as in 'gq -g 1 python train.py'";
      case EMPTY_NAME -> "the command name must not be empty";
      case NUL_BYTE -> "argument " + fault.argument() + " of the command contains a NUL byte";
    };
  }
}
