package dev.gq.actors.daemon;

import dev.gq.actors.health.Supervision;
import org.slf4j.Logger;

/**
 * One tick of the progress sampler ({@link DaemonTasks}), which says when sampling fails: the first
 * failure of a run is logged at WARN with why, the ones after it at DEBUG (each tick tries again, and
 * a failure that lasts would otherwise fill the log), and the first sample that works after them at
 * INFO. Ticks run one at a time (a fixed delay between them).
 */
final class ProgressSampling implements Runnable {
  /** One sample of every running job's progress. */
  interface Sample {
    void run() throws Exception;
  }

  private final Sample sample;
  private final Logger log;
  private boolean failing;

  ProgressSampling(Sample sample, Logger log) {
    this.sample = sample;
    this.log = log;
  }

  @Override
  public void run() {
    try {
      sample.run();
      if (failing) log.info("running jobs' progress sampled again");
      failing = false;
    } catch (Exception | LinkageError e) {
      if (failing) log.debug("progress sample failed: {}", e.toString());
      else log.warn("cannot sample the running jobs' progress ({}); gq tries again on every tick", Supervision.why(e));
      failing = true;
    }
  }
}
