package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.PrintableText;
import dev.gq.core.ledger.JobChanges;
import dev.gq.core.ledger.SpecRules;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The commands that change waiting jobs: {@code gq hold JOB...|--group G|--all} and {@code gq release
 * JOB...|--group G|--all} (a held job, a held group's waiting jobs or, with {@code --all}, every
 * waiting job do not start; running jobs are untouched), {@code gq urgent JOB} (to the front of the queue) and {@code gq modify
 * JOB} (its GPUs, priority, time limit or environment). Each change is stored by the daemon and survives
 * restarts; a job that already started is refused, keeping what it started with.
 */
final class JobControlCommand {
  private JobControlCommand() {}

  /** {@code gq hold} ({@code hold} true) and {@code gq release}: one command, named where it is added. */
  @Command(description = "Hold waiting jobs, or release held ones.")
  static final class Hold implements Callable<Integer> {
    private final Invocation inv;
    private final boolean hold;

    @Parameters(arity = "0..*", paramLabel = "JOB", description = "Waiting jobs: 12, 12-15, 12,14.")
    List<String> selectors;

    @Option(names = "--group", paramLabel = "GROUP", description = "A whole group instead: none of its waiting jobs starts while it is held.")
    String group;

    @Option(names = "--all", description = "The whole queue instead: no waiting job starts while it is held.")
    boolean all;

    Hold(Invocation inv, boolean hold) {
      this.inv = inv;
      this.hold = hold;
    }

    @Override
    public Integer call() throws ApiException {
      String verb = hold ? "hold" : "release";
      boolean none = selectors == null || selectors.isEmpty();
      int named = (none ? 0 : 1) + (group != null ? 1 : 0) + (all ? 1 : 0);
      if (named > 1)
        throw new UsageException("name jobs, --group or --all, one of them; e.g. 'gq " + verb + " 12 13', 'gq " + verb
            + " --group G' or 'gq " + verb + " --all'");
      if (named == 0) throw new UsageException("name the jobs to " + verb + ", or --group G, or --all for the whole queue");
      String line = all ? (hold ? inv.api().holdQueue(null) : inv.api().releaseQueue(null))
          : group != null ? (hold ? inv.api().holdQueue(group) : inv.api().releaseQueue(group))
          : inv.api().holdJobs(checked(JobRanges.expand(selectors, verb)), hold);
      inv.io().out().println(line);
      return ExitCode.OK;
    }
  }

  @Command(name = "urgent", description = "Move a waiting job to the front of the queue (the highest priority, plus one).")
  static final class Urgent implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(paramLabel = "JOB", description = "The waiting job.")
    long id;

    Urgent(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      inv.io().out().println(inv.api().toFront(checked(List.of(id)).get(0)));
      return ExitCode.OK;
    }
  }

  @Command(name = "modify", description = "Change a waiting job's GPUs, priority, time limit or environment.")
  static final class Modify implements Callable<Integer> {
    private final Invocation inv;

    @Parameters(paramLabel = "JOB", description = "The waiting job.")
    long id;

    @Option(names = {"-g", "--gpus"}, paramLabel = "N", description = "Whole GPUs it gets (0: CPU-only).")
    Integer gpus;

    @Option(names = "--priority", paramLabel = "N", description = "-100 to 100; higher starts first.")
    Integer priority;

    @Option(names = "--time", paramLabel = "DURATION", description = "A new time limit: 30m, 2h, 1h30m, 3d.")
    String time;

    @Option(names = "--no-time", description = "Remove its time limit.")
    boolean noTime;

    @Option(names = "--env", paramLabel = "NAME=VALUE", description = "Set a variable in its environment (repeatable).")
    List<String> env = List.of();

    @Option(names = "--unset-env", paramLabel = "NAME", description = "Remove a variable from its environment (repeatable).")
    List<String> unset = List.of();

    Modify(Invocation inv) {
      this.inv = inv;
    }

    @Override
    public Integer call() throws ApiException {
      if (time != null && noTime) throw new UsageException("give --time DURATION or --no-time, not both");
      if (gpus != null && gpus < 0) throw new UsageException("-g/--gpus must be 0 or more, not " + gpus);
      if (priority != null && SpecRules.priority(priority) != null) throw new UsageException(SpecRules.priority(priority));
      var limit = time == null ? null : DurationOption.parse("--time", time);
      Map<String, String> set = new LinkedHashMap<>();
      for (String e : env) {
        int eq = e.indexOf('=');
        if (eq < 1) throw new UsageException("--env takes NAME=VALUE, not '" + e + "'");
        set.put(e.substring(0, eq), e.substring(eq + 1));
      }
      if (gpus == null && priority == null && time == null && !noTime && set.isEmpty() && unset.isEmpty())
        throw new UsageException("nothing to change; give --gpus N, --priority N, --time DURATION, --no-time, --env NAME=VALUE"
            + " or --unset-env NAME");
      var change = new JobChanges.Change(gpus, priority, time != null || noTime, limit, set, unset);
      inv.io().out().println(inv.api().changeJob(checked(List.of(id)).get(0), change));
      return ExitCode.OK;
    }
  }

  private static List<Long> checked(List<Long> ids) {
    for (long id : ids) if (id < 1) throw new UsageException("job ids are 1 or more, not " + id);
    return ids;
  }
}
