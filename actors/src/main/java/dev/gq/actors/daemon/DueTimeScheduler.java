package dev.gq.actors.daemon;

import com.typesafe.config.Config;
import java.io.Closeable;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.event.LoggingAdapter;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * The actor system's timer thread, waking only when a timer is due. Pekko's own scheduler wakes every
 * tick ({@code pekko.scheduler.tick-duration}) whether or not anything is scheduled: ten times a second
 * at gq's 100 ms, most of an idle daemon's wake-ups; a shorter tick costs more, a longer one delays
 * every timer. This one keeps the timers in a {@link ScheduledThreadPoolExecutor} of one thread,
 * which sleeps until the earliest is due and not at all while none is; a cancelled timer (an ask
 * that got its answer) leaves the queue at once. Each task runs on the execution context it was
 * given, as Pekko's does. Chosen by {@code pekko.scheduler.implementation} in gq-daemon.conf; Pekko
 * makes it with the system's settings, its log and the thread factory of its timer thread.
 */
public final class DueTimeScheduler implements Scheduler, Closeable {
  private final ScheduledThreadPoolExecutor timers;
  /** The timers not yet run that are to run at close (few: Pekko marks hardly any). */
  private final Set<Fired> runOnClose = ConcurrentHashMap.newKeySet();

  public DueTimeScheduler(Config config, LoggingAdapter log, ThreadFactory threads) {
    timers = new ScheduledThreadPoolExecutor(1, threads);
    timers.setRemoveOnCancelPolicy(true);
    timers.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    timers.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
  }

  @Override
  public Cancellable scheduleOnce(FiniteDuration delay, Runnable task, ExecutionContext on) {
    return submit(task, on, f -> timers.schedule(f, Math.max(0, delay.toNanos()), TimeUnit.NANOSECONDS));
  }

  /** At a fixed rate, as Pekko's {@code scheduleAtFixedRate} (which calls this) promises. */
  @Override
  public Cancellable schedule(FiniteDuration initialDelay, FiniteDuration interval, Runnable task, ExecutionContext on) {
    if (interval.toNanos() <= 0) throw new IllegalArgumentException("a timer's interval must be positive, not " + interval);
    return submit(task, on, f -> timers.scheduleAtFixedRate(f, Math.max(0, initialDelay.toNanos()), interval.toNanos(),
        TimeUnit.NANOSECONDS));
  }

  /** The finest spacing of timers, in Hz: this scheduler has no tick, so a millisecond. */
  @Override
  public double maxFrequency() {
    return 1000.0;
  }

  /** Stops the thread; of the timers not yet run, those Pekko marks to run at close ({@link Scheduler.TaskRunOnClose}) run now. */
  @Override
  public void close() {
    timers.shutdownNow();
    for (Fired f : runOnClose) {
      if (f.isCancelled() || f.ran) continue;
      try {
        f.task.run();
      } catch (RuntimeException e) {
        // stopping anyway: a task that fails at close does not stop the others
      }
    }
    runOnClose.clear();
  }

  private interface Schedule {
    ScheduledFuture<?> on(Fired f);
  }

  private Cancellable submit(Runnable task, ExecutionContext on, Schedule schedule) {
    Fired f = new Fired(task, on, task instanceof Scheduler.TaskRunOnClose ? runOnClose : null);
    if (f.owner != null) runOnClose.add(f);
    try {
      f.future = schedule.on(f);
    } catch (RejectedExecutionException e) {
      // as Pekko's own: a timer asked for after the scheduler stopped is refused with this exception,
      // which Pekko's dispatchers catch while they stop (they then shut down at once)
      runOnClose.remove(f);
      throw new IllegalStateException("cannot enqueue after timer shutdown", e);
    }
    return f;
  }

  /** One timer: hands its task to its execution context when due; also its handle. */
  private static final class Fired implements Runnable, Cancellable {
    final Runnable task;
    final ExecutionContext on;
    /** The set that holds this timer until it runs, when it is to run at close; else null. */
    final Set<Fired> owner;
    volatile ScheduledFuture<?> future;
    volatile boolean ran;

    Fired(Runnable task, ExecutionContext on, Set<Fired> owner) {
      this.task = task;
      this.on = on;
      this.owner = owner;
    }

    @Override
    public void run() {
      ran = true;
      if (owner != null) owner.remove(this);
      on.execute(task);
    }

    @Override
    public boolean cancel() {
      ScheduledFuture<?> f = future;
      boolean cancelled = f != null && f.cancel(false);
      if (cancelled && owner != null) owner.remove(this);
      return cancelled;
    }

    @Override
    public boolean isCancelled() {
      ScheduledFuture<?> f = future;
      return f != null && f.isCancelled();
    }
  }
}
