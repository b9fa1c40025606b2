package dev.gq.actors.runner;

import dev.gq.core.job.Durations;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.EndStates;
import dev.gq.core.ledger.Preemption;
import dev.gq.core.schedule.Request;
import dev.gq.host.resume.CheckpointFiles;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * A runner's preemption under way: what it asked (the signal, to the main process or the group, and the
 * grace), and, when the job ignored it, the note saying so with the age of the job's newest checkpoint;
 * the end it reports then says why the job stopped.
 */
final class Preempting {
  private final Preemption preemption;
  /** Why the job was stopped after its grace (it ignored the signal), or null. */
  private String ignoredNote;

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

  /** The note for a job still running when the grace is over, found off the actor's thread. */
  CompletableFuture<String> ignored(Job job, RunnerDeps deps) {
    Instant now = deps.clock().instant();
    String lead = "did not stop within " + Durations.format(preemption.grace()) + " of SIG" + preemption.signalName() + "; stopped (";
    return CompletableFuture.supplyAsync(() -> {
      Job stored = job.spec().hasCommand() ? job : deps.stored().apply(job.id());
      return CheckpointFiles.newest(stored.spec().argv(), stored.spec().cwd()).map(f -> "newest checkpoint " + f.describe(now))
          .orElse("no complete checkpoint found");
    }, deps.blocking()).handle((found, err) -> lead + (err != null ? "its checkpoints could not be read" : found) + ")");
  }

  void ignoredBecause(String note) {
    ignoredNote = note;
  }

  /** The end of the preempted job: why it stopped, with the exit status it left. */
  Request.Ended ended(Request.Ended e) {
    String how = e.reason() != null ? e.reason() : EndStates.describe(e.exitCode());
    String reason = ignoredNote != null ? "preempted: " + ignoredNote + "; " + how : "preempted (SIG" + preemption.signalName() + "); " + how;
    return new Request.Ended(e.jobId(), e.exitCode(), reason, false, e.endedNanos(), e.after(), e.afterNanos(), e.endedAt());
  }
}
