package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.job.GpuSlot;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq adopt PID}: makes a run started by hand (and everything it starts) a RUNNING job that
 * owns the GPUs where it or its descendants compute, so that the queue works around it and
 * {@code gq ps}, {@code show}, {@code logs}, {@code eta} and {@code cancel} see it. The daemon
 * reads the process and decides; this prints the new job, or the one line saying why not.
 */
@Command(name = "adopt",
    description = "Make a run you started by hand a job that owns the GPUs it uses.",
    footer = {"", "gq reads the command line, working directory and start time from /proc; its exit status cannot",
        "be known, so the job ends EXITED. 'gq cancel' signals only that process and its descendants, never",
        "its process group or session. Its log is the file its stdout goes to, if it is a regular file."})
final class AdoptCommand implements Callable<Integer> {
  private final Invocation inv;

  @Parameters(paramLabel = "PID", description = "The process to adopt: one of yours, running, not a job of this or any other gq.")
  long pid;

  @Option(names = "--name", paramLabel = "NAME", description = "A name for the job (default: the program's file name).")
  String name;

  @Option(names = "--group", paramLabel = "GROUP", description = "Put the job in this group.")
  String group;

  @Option(names = "--key", paramLabel = "KEY", description = "Give the job this key (refused if a live or DONE job holds it).")
  String key;

  @Option(names = "--json", description = "Print {id, pid, state, gpu_indices, gpu_uuids, log_path} as JSON.")
  boolean json;

  AdoptCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    if (pid < 1) throw new UsageException("PID must be a process id (1 or more), not " + pid);
    AdoptOutcome o = inv.api().adopt(pid, name, group, key);
    if (json) inv.io().out().println(JsonView.pretty(json(o)));
    else inv.io().out().println(text(o));
    return ExitCode.OK;
  }

  private ObjectNode json(AdoptOutcome o) {
    ObjectNode n = JsonView.object();
    n.put("id", o.jobId());
    n.put("pid", pid);
    n.put("state", "RUNNING");
    ArrayNode idx = n.putArray("gpu_indices");
    o.gpus().forEach(g -> idx.add(g.index()));
    ArrayNode uuids = n.putArray("gpu_uuids");
    o.gpus().forEach(g -> uuids.add(g.uuid()));
    n.put("log_path", o.logPath());
    return n;
  }

  /** Who computes on the GPUs when it is not the adopted process itself (a shell's child that trains). */
  private String users(AdoptOutcome o) {
    List<Long> others = o.gpuPids().stream().filter(p -> p != pid).toList();
    if (others.isEmpty()) return "";
    String which = others.stream().map(String::valueOf).collect(Collectors.joining(", "));
    return " (used by its descendant" + (others.size() == 1 ? " " : "s ") + which + (o.gpuPids().contains(pid) ? " and by it" : "")
        + "; the job is process " + pid + " and everything it started)";
  }

  private String text(AdoptOutcome o) {
    String gpus = o.gpus().isEmpty()
        ? " as a 0-GPU job: no GPU lists it or its descendants"
        : " on GPU " + o.gpus().stream().map(GpuSlot::index).map(String::valueOf).collect(Collectors.joining(","))
            + users(o);
    String log = o.logPath() == null
        ? "its stdout is not a regular file, so 'gq logs " + o.jobId() + "' has nothing to show"
        : "'gq logs " + o.jobId() + "' reads " + o.logPath();
    return "Adopted process " + pid + " as job " + o.jobId() + gpus + "; " + log;
  }
}
