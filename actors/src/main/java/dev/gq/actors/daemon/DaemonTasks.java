package dev.gq.actors.daemon;

import dev.gq.actors.socket.ClientActivity;
import dev.gq.actors.socket.DaemonApi;
import dev.gq.persistence.Database;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's work besides answering, once it serves: every running job's progress sampled on a
 * timer, the database read whole once in the background (the damage found is kept for {@code gq
 * daemon status}), and a look every two seconds whether the daemon fell quiet after work so that
 * {@link IdleCollection} can give memory back. All of it on the blocking pool or a low-priority
 * thread, never an actor's.
 */
final class DaemonTasks {
  private static final Logger LOG = LoggerFactory.getLogger(DaemonTasks.class);
  /** How often {@link IdleCollection} looks whether the daemon fell quiet after work. */
  private static final Duration IDLE_LOOK = Duration.ofSeconds(2);

  private volatile String damage;

  private DaemonTasks() {}

  /**
   * Starts the tasks of a daemon whose database is {@code database}; progress sampled every {@code sample}.
   */
  static DaemonTasks start(ActorSystem<?> system, DaemonApi api, Path database,
      Duration sample) {
    DaemonTasks t = new DaemonTasks();
    t.checkDatabase(database);
    sampleProgress(system, api, sample);
    system.scheduler().scheduleWithFixedDelay(IDLE_LOOK, IDLE_LOOK, new IdleCollection(ClientActivity::frames),
        system.dispatchers().lookup(DispatcherSelector.blocking()));
    return t;
  }

  /** The damage the whole read of the database found, in one line; null while none is found. */
  String damage() {
    return damage;
  }

  /**
   * Notes every running job's progress every {@code every} (GQ_PROGRESS_SAMPLE_MS), on the blocking
   * pool, so that a rate from two moments is there the first time someone asks. A job whose files
   * have not changed costs a few stat calls; nothing is read. A failure is logged at WARN once a run
   * ({@link ProgressSampling}).
   */
  private static void sampleProgress(ActorSystem<?> system, DaemonApi api, Duration every) {
    system.scheduler().scheduleWithFixedDelay(every, every, new ProgressSampling(api::sampleProgress, LOG),
        system.dispatchers().lookup(DispatcherSelector.blocking()));
  }

  /**
   * Reads every page of the database once, in the background: start-up checked only the small
   * tables, so that its cost does not grow with the history. Damage found here is logged and shown
   * by `gq daemon status`; the next start refuses the file if start-up reaches the damage.
   */
  private void checkDatabase(Path file) {
    Thread t = new Thread(() -> {
      String why = Database.fullCheck(file);
      if (why == null) return;
      damage = Database.damagedText(file, why);
      LOG.error("{}", damage);
    }, "gq-database-check");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }
}
