package dev.gq.actors.runner;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.BehaviorInterceptor;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.TypedActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job's runner that fails: the failure is logged in one line with the job's id and the runner
 * stops (its leases' copies released as on any stop). The Scheduler, which watches each runner,
 * sees it stop without having reported the job's end and has the Reconciler check the job at once.
 */
public final class RunnerFailures {
  private static final Logger LOG = LoggerFactory.getLogger(JobRunner.class);

  private RunnerFailures() {}

  /** {@code runner}, the runner of job {@code jobId}, logging its failure; {@code faults} injects failures in tests. */
  public static <T> Behavior<T> logged(long jobId, Behavior<T> runner, dev.gq.actors.health.Faults faults) {
    Behavior<T> watched = Behaviors.intercept(() -> new Log<>(jobId, faults), runner);
    return Behaviors.supervise(watched).onFailure(Throwable.class, SupervisorStrategy.stop().withLoggingEnabled(false));
  }

  private static final class Log<T> extends BehaviorInterceptor<T, T> {
    private final long jobId;
    private final dev.gq.actors.health.Faults faults;

    @SuppressWarnings("unchecked")
    Log(long jobId, dev.gq.actors.health.Faults faults) {
      super((Class<T>) (Class<?>) Object.class);
      this.jobId = jobId;
      this.faults = faults;
    }

    @Override
    public Behavior<T> aroundStart(TypedActorContext<T> ctx, PreStartTarget<T> target) {
      try {
        return target.start(ctx);
      } catch (RuntimeException | Error e) {
        failed(e);
        throw e;
      }
    }

    @Override
    public Behavior<T> aroundReceive(TypedActorContext<T> ctx, T msg, ReceiveTarget<T> target) {
      try {
        faults.checkRunner();
        return target.apply(ctx, msg);
      } catch (RuntimeException | Error e) {
        failed(e);
        throw e;
      }
    }

    @Override
    public Behavior<T> aroundSignal(TypedActorContext<T> ctx, Signal signal, SignalTarget<T> target) {
      try {
        return target.apply(ctx, signal);
      } catch (RuntimeException | Error e) {
        failed(e);
        throw e;
      }
    }

    private void failed(Throwable e) {
      LOG.error("job {}: its runner failed ({}); checking the job now", jobId, dev.gq.actors.health.Supervision.why(e), e);
    }
  }
}
