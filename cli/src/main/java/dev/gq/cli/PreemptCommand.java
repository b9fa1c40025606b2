package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.core.schedule.Preemptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq preempt JOB... [--grace 2m] [--signal TERM] [--group-signal] [--requeue] [--for JOB2]}:
 * makes room on the GPUs. Each job keeps its GPUs while a signal to its main process (or, with
 * {@code --group-signal}, to its whole process group) asks it to save a checkpoint and stop; after
 * the grace it is stopped as {@code cancel} stops a job. It ends PREEMPTED, which is not a failure;
 * {@code gq resume} continues it from its newest checkpoint. {@code --for} gives the freed GPUs to
 * a waiting job the moment they are free; {@code --requeue} queues the resume at once. All or none.
 */
@Command(name = "preempt", description = "Make room: ask running jobs to save and stop, keeping their GPUs until they have; 'gq resume' continues them.")
final class PreemptCommand implements Callable<Integer> {
  static final Duration DEFAULT_GRACE = Duration.ofMinutes(2);
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "1..*", description = "The running jobs to preempt: 216, 216-218.")
  List<String> selectors = new ArrayList<>();

  @Option(names = "--grace", paramLabel = "DURATION", description = "How long each may take to save before it is stopped (default 2m): 30s, 5m.")
  String grace;

  @Option(names = "--signal", paramLabel = "SIGNAL", description = "The signal that asks it to save: TERM (default), INT, USR1 or USR2.")
  String signal;

  @Option(names = "--group-signal", description = "Send the signal to the job's whole process group, not only its main process.")
  boolean groupSignal;

  @Option(names = "--for", paramLabel = "JOB", description = "Give the freed GPUs to this waiting job as soon as they are free; nothing else can take them.")
  String forJob;

  @Option(names = "--requeue", description = "Queue the resume as soon as the job has stopped.")
  boolean requeue;

  @Option(names = "--json", description = "Print the jobs preempted as JSON.")
  boolean json;

  PreemptCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    List<Long> ids = JobRanges.expand(selectors, "preempt");
    Duration g = grace == null ? DEFAULT_GRACE : DurationOption.parse("--grace", grace);
    Long target = null;
    if (forJob != null) {
      target = Scheduling.jobId(forJob);
      if (target == null) throw new UsageException("invalid job id '" + forJob + "' for --for; use a job number like 12");
    }
    List<String> lines = inv.api().preempt(new Preemptions.PreemptAsk(ids, signal(signal), groupSignal, g, target, requeue));
    if (json) {
      ObjectNode o = JsonView.object();
      ArrayNode a = o.putArray("preempted");
      ids.forEach(a::add);
      ArrayNode m = o.putArray("messages");
      lines.forEach(m::add);
      inv.io().out().println(JsonView.pretty(o));
    } else lines.forEach(inv.io().out()::println);
    return ExitCode.OK;
  }

  /** The signal a name means: TERM, INT, USR1 or USR2, with or without SIG, any case. */
  static int signal(String name) {
    if (name == null) return 15;
    String n = name.strip().toUpperCase(Locale.ROOT);
    if (n.startsWith("SIG")) n = n.substring(3);
    return switch (n) {
      case "TERM", "15" -> 15;
      case "INT", "2" -> 2;
      case "USR1", "10" -> 10;
      case "USR2", "12" -> 12;
      default -> throw new UsageException("invalid --signal '" + name + "'; use TERM, INT, USR1 or USR2");
    };
  }
}
