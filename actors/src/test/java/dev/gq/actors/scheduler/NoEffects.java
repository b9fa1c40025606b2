package dev.gq.actors.scheduler;

import dev.gq.actors.runner.JobRunner;
import dev.gq.core.fair.FairView;
import dev.gq.core.job.Job;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.protocol.GqPaths;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The Scheduler's effects as no-ops, for tests to extend with the ones they watch: runners that
 * ignore what they are told, a journal that knows every job, a machine of its own.
 */
class NoEffects implements SchedulerEffects {
  /** The tests' settings: a fixed clock, data under /data, a snapshot every {@code snapshotEvery} events. */
  static SchedulerSettings settings(int snapshotEvery) {
    return SchedulerSettings.defaults(Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC),
        new GqPaths(Path.of("/data"), Path.of("/run/gq")), snapshotEvery);
  }

  @Override
  public ActorRef<JobRunner.Command> startRunner(ActorContext<Scheduler.Command> ctx, Job job, boolean reattach,
      Map<String, Long> totalMiB) {
    return ctx.spawnAnonymous(Behaviors.<JobRunner.Command>ignore());
  }

  @Override public void startReconciler(ActorContext<Scheduler.Command> ctx, Ledger l, ActorRef<Scheduler.Command> s) {}
  @Override public void checkNow(ActorContext<Scheduler.Command> ctx, List<Job> jobs, ActorRef<Scheduler.Command> s) {}
  @Override public void project(long firstSeq, List<LedgerEvent> events) {}
  @Override public void pollNow() {}
  @Override public void logEvents(List<LedgerEvent> events) {}
  @Override public String lostHistory(Ledger ledger) { return null; }
  @Override public void refuseStart(String line) {}
  @Override public void replayFailed(Throwable cause) {}
  @Override public String diskFullNote() { return null; }
  @Override public void giveUpReserve() {}
  @Override public void journalWritable() {}
  @Override public FairView fair() { return FairView.NONE; }
  @Override public void demand(Ledger ledger) {}
}
