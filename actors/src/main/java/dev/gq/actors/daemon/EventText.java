package dev.gq.actors.daemon;

import dev.gq.core.gpu.MemoryText;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.ledger.ControlText;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** One readable line per event for the daemon log. */
final class EventText {
  /** The most submissions of one write logged one a line; more are logged as one line (a batch of 20,000 made 20,000). */
  static final int SUBMITTED_ONE_BY_ONE = 50;

  private EventText() {}

  /**
   * The lines of one write's {@code events}, in order: one per event, but a write of more than
   * {@link #SUBMITTED_ONE_BY_ONE} submissions says them in one line, where the first of them was,
   * naming the first and the last (each is in the journal: {@code gq events}).
   */
  static List<String> lines(List<LedgerEvent> events) {
    List<JobSubmitted> submitted = new ArrayList<>();
    for (LedgerEvent e : events) if (e instanceof JobSubmitted s) submitted.add(s);
    List<String> out = new ArrayList<>();
    boolean together = submitted.size() > SUBMITTED_ONE_BY_ONE;
    for (LedgerEvent e : events) {
      if (!together || !(e instanceof JobSubmitted s)) out.add(of(e));
      else if (s == submitted.get(0)) out.add(submitted.size() + " jobs submitted in one write, the first " + of(s)
          + "; the last job " + submitted.get(submitted.size() - 1).jobId() + " ('gq events' shows each)");
    }
    return out;
  }

  static String of(LedgerEvent e) {
    return switch (e) {
      case QueuePaused p -> "queue held";
      case QueueResumed r -> "queue released";
      case GroupHeld h -> "group " + h.group() + " held: " + h.reason();
      case GroupReleased r -> "group " + r.group() + " released";
      case JobsRemoved r -> "removed from the history: jobs " + r.jobIds();
      case JobIdsSkipped s -> "next job id " + s.nextId() + ": " + s.reason();
      case GroupLimitSet g -> "group " + g.group() + ": " + (g.maxRunning() == null ? "no cap on jobs at once"
          : "at most " + g.maxRunning() + " job(s) at once");
      case GpuDrained d -> ControlText.drained(null, d.uuid(), d.reason(), List.of());
      case GpuResumed r -> ControlText.resumed(null, r.uuid());
      case JobIdleNoted i -> "job " + i.jobId() + ": idle: its GPUs have shown 0% utilisation since " + i.since();
      case ClusterUnreachable u -> "Slurm cluster " + u.profile() + " does not answer: " + u.reason();
      case ClusterReachable r -> "Slurm cluster " + r.profile() + " answers again";
      case GroupPerGpuSet p -> "group " + p.group() + ": " + (p.perGpu() == null ? "its jobs share a GPU only when they ask"
          : "its GPU jobs share their GPUs, at most " + p.perGpu() + " a GPU");
      case JobOverShare o -> "job " + o.jobId() + " uses " + MemoryText.words(o.usedMiB()) + " of GPU " + o.index() + ", more than the "
          + MemoryText.words(o.declaredMiB()) + " it declared: no more jobs go there while it does";
      case JobsHeld h -> ControlText.held(h.jobIds(), h.held());
      case JobEvent j -> "job " + j.jobId() + ": " + job(j);
    };
  }

  private static String job(JobEvent e) {
    return switch (e) {
      case JobSubmitted s -> "submitted, " + s.spec().gpus() + " GPU(s), argv "
          + (s.spec().hasCommand() ? s.spec().argv() : "of job " + s.sameAs())
          + (s.retryOf() == null ? "" : ", retrying job " + s.retryOf())
          + (s.waitsFor().isEmpty() ? "" : ", waits for " + s.waitsFor().stream().map(p -> "job " + p.jobId()).toList());
      case JobReserved r -> "reserved GPU(s) " + r.gpus().stream().map(GpuSlot::index).map(String::valueOf)
          .collect(Collectors.joining(",", "[", "]"));
      case JobAdopted a -> "adopted pid " + a.identity().pid() + ", GPU(s) " + a.gpus().stream().map(GpuSlot::index)
          .map(String::valueOf).collect(Collectors.joining(",", "[", "]")) + ", argv " + a.spec().argv();
      case JobLaunched l -> "launched, pid " + l.identity().pid();
      case JobLaunchFailed f -> "launch failed: " + f.reason();
      case JobCancelRequested c -> "cancel requested";
      case JobPreemptRequested p -> "preempt requested: SIG" + p.preemption().signalName() + " to its "
          + (p.groupSignal() ? "process group" : "main process") + ", grace " + p.grace()
          + (p.forJob() == null ? "" : ", its GPUs for job " + p.forJob()) + (p.requeue() ? ", resume queued" : "");
      case JobCancelled c -> "cancelled: " + c.reason();
      case JobExited x -> "exited, code " + x.exitCode() + (x.reason() == null ? "" : " (" + x.reason() + ")");
      case JobTimedOut t -> "timed out: " + t.reason() + ", code " + t.exitCode();
      case JobInterrupted i -> "interrupted: " + i.reason();
      case JobOrphaned o -> "orphaned: " + o.reason();
      case JobRequeued q -> "back in the queue: " + q.reason();
      case JobRecovered r -> "recovered: its GPUs are present again";
      case JobSentToCluster c -> "sent to Slurm as job " + c.clusterId();
      case JobClusterStarted c -> "started by Slurm on " + c.node();
      case JobChanged c -> "changed:" + (c.gpus() == null ? "" : " " + c.gpus() + " GPU(s)")
          + (c.priority() == null ? "" : " priority " + c.priority())
          + (c.timeLimitSet() ? (c.timeLimit() == null ? " no time limit" : " time limit " + c.timeLimit()) : "");
    };
  }
}
