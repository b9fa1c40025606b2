package dev.gq.actors.cluster;

import dev.gq.actors.health.Beat;
import dev.gq.actors.health.Supervision;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.cluster.ClusterBatches;
import dev.gq.core.cluster.ClusterConfig;
import dev.gq.core.job.Job;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.ledger.Ledger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.LongFunction;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the jobs a Slurm cluster runs: each pass (every {@code slurm_poll}, and soon after the
 * queue changes) sends the cluster jobs that wait for sbatch ({@link ClusterBatches}: arrays where
 * they share a shape), asks each profile's cluster about its jobs with one squeue call, reads the
 * exit records their scripts wrote, and hands all of it to the Scheduler, which decides what it
 * means; then it carries the ledger's wishes to Slurm: scancel for jobs being cancelled, scontrol
 * hold and release for held jobs and groups. Runs on the blocking dispatcher (it waits for Slurm's
 * commands). Does nothing while no cluster job is live.
 */
public final class ClusterBridge {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterBridge.class);

  public sealed interface Command {}
  /** The queue changed: a pass soon. */
  public record Poke() implements Command {}
  private record Tick() implements Command {}

  private final ClusterAsks scheduler;
  private final TimerScheduler<Command> timers;
  private final ClusterPass pass;
  private final Beat beat;
  private static final Duration QUIET = Duration.ofSeconds(1);
  private static final Duration GATHER = Duration.ofSeconds(5);
  private Duration every = ClusterConfig.DEFAULT_POLL;
  private long firstPoke;

  private ClusterBridge(ActorRef<Scheduler.Command> scheduler, org.apache.pekko.actor.typed.Scheduler system,
      TimerScheduler<Command> timers, ClusterPass pass, Beat beat) {
    this.beat = beat;
    this.scheduler = new ClusterAsks(scheduler, system);
    this.timers = timers;
    this.pass = pass;
  }

  /** The bridge for the daemon whose data directory is {@code dataDir}; {@code stored} reads a job with its command. */
  public static Behavior<Command> create(ActorRef<Scheduler.Command> scheduler, Path dataDir,
      LongFunction<Job> stored, Map<String, String> env) {
    return create(scheduler, dataDir, stored, env, Beat.NONE);
  }

  /** The same, telling {@code beat} of each pass and each that failed. */
  public static Behavior<Command> create(ActorRef<Scheduler.Command> scheduler, Path dataDir,
      LongFunction<Job> stored, Map<String, String> env, Beat beat) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      var bridge = new ClusterBridge(scheduler, ctx.getSystem().scheduler(), timers,
          new ClusterPass(new ClusterFiles(dataDir), stored, env), beat);
      timers.startSingleTimer(new Tick(), Duration.ofSeconds(1));
      return Behaviors.receive(Command.class)
          .onMessage(Tick.class, t -> bridge.tick())
          .onMessage(Poke.class, p -> bridge.poked())
          .build();
    }));
  }

  private Behavior<Command> poked() {
    // a burst of changes (a sweep's submits from a shell loop) makes one pass, and so one array:
    // the pass waits for QUIET without a change, but no longer than GATHER after the first
    long now = System.nanoTime();
    if (firstPoke == 0) firstPoke = now;
    long left = GATHER.toNanos() - (now - firstPoke);
    timers.startSingleTimer("soon", new Tick(), Duration.ofNanos(Math.max(0, Math.min(QUIET.toNanos(), left))));
    return Behaviors.same();
  }

  private Behavior<Command> tick() {
    timers.cancel("soon");
    firstPoke = 0;
    try {
      Ledger l = scheduler.ledger();
      if (l.live().values().stream().anyMatch(j -> j.spec().onCluster())) {
        ClusterConfig config = pass.config();
        every = config.poll();
        pass.run(l, config, scheduler);
      }
      beat.worked();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception | LinkageError e) {
      LOG.warn("cluster pass failed: {}", e.toString());
      beat.failing("cluster pass failed: " + Supervision.why(e));
    }
    timers.startSingleTimer(new Tick(), every);
    return Behaviors.same();
  }
}
