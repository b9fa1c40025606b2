package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.Durations;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What gq notices about running jobs without acting on it: a job whose GPUs have done nothing for
 * longer than the idle threshold ({@code idle 45m}), and a job on a GPU drained as unwell
 * ({@code GPU 1 unwell}). {@code gq ps} shows them in its NOTE column and {@code gq show} on lines
 * of their own. The daemon is asked only when a listed job runs on GPUs.
 */
record JobHints(Map<Long, Instant> idle, Map<String, String> unwell, Instant now) {

  static final JobHints NONE = new JobHints(Map.of(), Map.of(), Instant.EPOCH);

  JobHints {
    idle = Map.copyOf(idle);
    unwell = Map.copyOf(unwell);
  }

  static JobHints of(GqApi api, List<Job> jobs) throws ApiException {
    boolean onGpus = jobs.stream().anyMatch(j -> j.state().holdsGpus() && !j.gpus().isEmpty());
    if (!onGpus) return NONE;
    return new JobHints(api.idleJobs(), api.gpus().unwell(), api.now());
  }

  /** How long the job has been idle ("45m"); null when it is not. */
  String idleFor(Job job) {
    Instant since = job.state() == JobState.RUNNING ? idle.get(job.id()) : null;
    return since == null ? null : Durations.format(Duration.between(since, now).withNanos(0));
  }

  /** Each unwell GPU of the job with its problem ("GPU 1: Xid 79: fell off the bus"), by index. */
  List<String> unwellGpus(Job job) {
    List<String> out = new ArrayList<>();
    if (!job.state().holdsGpus()) return out;
    job.gpus().stream().sorted(Comparator.comparingInt(GpuSlot::index)).forEach(g -> {
      String problem = unwell.get(g.uuid());
      if (problem != null) out.add("GPU " + g.index() + ": " + problem);
    });
    return out;
  }

  /** The NOTE cell: "idle 45m", "GPU 1 unwell", both, or empty. */
  String note(Job job) {
    List<String> parts = new ArrayList<>();
    String idleFor = idleFor(job);
    if (idleFor != null) parts.add("idle " + idleFor);
    for (String g : unwellGpus(job)) parts.add(g.substring(0, g.indexOf(':')) + " unwell");
    return String.join(", ", parts);
  }

  /** The notes of {@code jobs} that have one, by job id. */
  Map<Long, String> notes(List<Job> jobs) {
    Map<Long, String> out = new HashMap<>();
    for (Job j : jobs) {
      String n = note(j);
      if (!n.isEmpty()) out.put(j.id(), n);
    }
    return out;
  }
}
