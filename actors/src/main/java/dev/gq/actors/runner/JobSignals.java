package dev.gq.actors.runner;

import dev.gq.core.job.Job;
import dev.gq.core.launch.Signals;
import dev.gq.core.ledger.Preemption;
import dev.gq.core.proc.ProcessIdentity;
import org.slf4j.Logger;

/**
 * The signals a runner sends its job, each logged: to the job's process group and to its processes
 * outside it that carry its tag (a cancel, a stop at the time limit, a kill), or a preemption's signal
 * to the main process or the group. The signaller re-verifies the identity before each signal.
 */
final class JobSignals {
  private final Job job;
  private final RunnerDeps deps;
  private final Logger log;

  JobSignals(Job job, RunnerDeps deps, Logger log) {
    this.job = job;
    this.deps = deps;
    this.log = log;
  }

  /** Sends {@code sig} to the job; false when its group was not signalled (it may be gone: look now). */
  boolean all(ProcessIdentity identity, int sig) {
    Signals.Outcome o = deps.effects().signals().signalGroup(identity, sig);
    log.info("job {}: signal {} to process group {}: {}", job.id(), sig, identity.pgid(), o);
    int detached = deps.effects().signals().signalTagged(identity, job.tag(), sig);
    if (detached > 0) log.info("job {}: signal {} to {} process(es) outside its session carrying its tag", job.id(), sig, detached);
    return o == Signals.Outcome.SENT;
  }

  /** Sends the preemption's signal as it asks; false when it was not sent (the job may be gone: look now). */
  boolean preempt(ProcessIdentity identity, Preemption p) {
    if (p.group()) return all(identity, p.signal());
    Signals.Outcome o = deps.effects().signals().signalMain(identity, job.tag(), p.signal());
    log.info("job {}: preempted: SIG{} to its main process: {}", job.id(), p.signalName(), o);
    return o == Signals.Outcome.SENT;
  }
}
