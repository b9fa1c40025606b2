package dev.gq.actors.runner;

import dev.gq.actors.health.FailureWatch;
import dev.gq.actors.health.Faults;
import dev.gq.actors.health.Supervision;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.SupervisorStrategy;
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
  public static <T> Behavior<T> logged(long jobId, Behavior<T> runner, Faults faults) {
    Behavior<T> watched = FailureWatch.around(runner, faults::checkRunner,
        e -> LOG.error("job {}: its runner failed ({}); checking the job now", jobId, Supervision.why(e), e));
    return Behaviors.supervise(watched).onFailure(Throwable.class, SupervisorStrategy.stop().withLoggingEnabled(false));
  }
}
