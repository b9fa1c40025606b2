package dev.gq.actors.runner;

import dev.gq.core.end.EndReasons;
import dev.gq.core.end.PreemptIgnored;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.Preemption;
import dev.gq.core.schedule.Request;
import dev.gq.host.resume.CheckpointFiles;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * A runner's preemption under way: what it asked (the signal, to the main process or the group, and the
 * grace), and, when the job ignored it, what was found of the job's checkpoints then; the end it reports
 * carries both, and the Scheduler's decision words why the job stopped.
 */
final class Preempting {
  private final Preemption preemption;
  /** What was found when the job outlived its grace (it ignored the signal), or null. */
  private PreemptIgnored ignored;

  Preempting(Preemption preemption) {
    this.preemption = preemption;
  }

  Preemption preemption() {
    return preemption;
  }

  /** How long is left of the grace, counted from the request (after a daemon restart, what is left of it). */
  Duration graceLeft(Instant now) {
    Duration left = Duration.between(now, preemption.deadline());
    return left.isNegative() ? Duration.ZERO : left;
  }

  /** What the runner finds of a job still running when the grace is over, looked for off the actor's thread. */
  CompletableFuture<PreemptIgnored> ignored(Job job, RunnerDeps deps) {
    Instant now = deps.settings().clock().instant();
    return CompletableFuture.supplyAsync(() -> {
      Job stored = job.spec().hasCommand() ? job : deps.effects().stored(job.id());
      return CheckpointFiles.newest(stored.spec().argv(), stored.spec().cwd())
          .map(f -> PreemptIgnored.found(now, f.dir().getFileName().toString(), f.saved()))
          .orElse(PreemptIgnored.none(now));
    }, deps.effects().blocking()).handle((found, err) -> err != null ? PreemptIgnored.unreadable(now) : found);
  }

  void ignored(PreemptIgnored found) {
    ignored = found;
  }

  /** The note saying the job ignored the preemption, as its end will give it (for the log). */
  String ignoredNote() {
    return EndReasons.ignored(preemption, ignored);
  }

  /** The end of the preempted job, with the preemption it went through and whether it ignored it. */
  Request.Ended ended(Request.Ended e) {
    return new Request.Ended(e.jobId(), e.seen().preempted(preemption, ignored), e.endedNanos(), e.after(), e.afterNanos(),
        e.endedAt());
  }
}
