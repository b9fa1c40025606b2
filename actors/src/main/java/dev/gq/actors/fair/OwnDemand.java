package dev.gq.actors.fair;

import dev.gq.core.fair.Demand;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.schedule.FairPlan;
import dev.gq.host.fair.DemandFiles;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This daemon's demand as the other daemons read it: the counts {@link FairSource} hands it, written
 * to this daemon's own demand file ({@link DemandFiles}, which keeps the file's name for the daemon's
 * lifetime), and withdrawn at stop. Keeps why the last publish failed, for {@code gq who} and
 * {@code gq daemon status}, and logs it once per change.
 */
final class OwnDemand {
  private static final Logger LOG = LoggerFactory.getLogger(OwnDemand.class);

  private final DemandFiles files;
  private final LeaseHolder.Instance self;
  private final long pid;
  private final ProcessTable procs;
  private final Clock clock;
  private long startTicks = -1;
  private boolean withdrawn;
  private volatile String problem;

  OwnDemand(DemandFiles files, LeaseHolder.Instance self, long pid, ProcessTable procs, Clock clock) {
    this.files = files;
    this.self = self;
    this.pid = pid;
    this.procs = procs;
    this.clock = clock;
  }

  /** Why this user's demand could not be published the last time, in one line; null when it was. */
  String problem() {
    return problem;
  }

  synchronized void publish(FairPlan.Own c) {
    if (withdrawn) return;
    if (startTicks < 0) startTicks = procs.info(pid).map(i -> i.startTicks()).orElse(0L);
    Demand d = new Demand(self.user(), self.uid(), pid, startTicks, procs.bootId(), c.jobsWaiting(), c.gpusWanted(),
        c.nextNeed(), c.oldestWait(), c.gpusHeld(), clock.instant());
    String now;
    try {
      now = files.publish(d);
    } catch (RuntimeException e) {
      now = "cannot publish this user's demand: " + e.getMessage();
    }
    if (now != null && !now.equals(problem)) LOG.warn("{}", now);
    else if (now == null && problem != null) LOG.info("this user's demand is published again");
    problem = now;
  }

  /** Removes this daemon's demand file (at stop); nothing is published after. */
  synchronized void withdraw() {
    withdrawn = true;
    try {
      String why = files.withdraw(self.uid());
      if (why != null) LOG.debug("{}", why);
    } catch (RuntimeException e) {
      LOG.debug("cannot remove this daemon's demand file: {}", e.toString());
    }
  }
}
