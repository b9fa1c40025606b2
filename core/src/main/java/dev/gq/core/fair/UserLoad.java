package dev.gq.core.fair;

import java.time.Instant;

/**
 * One user's part of the machine as the fair turn sees it: GPUs held, GPUs wanted by the jobs
 * that wait, the GPUs the first waiting job needs, and since when the user has waited (the later of
 * the first waiting job's submit and the user's last start; null when none waits). From the user's demand files, or for this daemon's own user from its live state.
 */
public record UserLoad(String user, int held, int wanted, int nextNeed, Instant oldestWait) {

  public static UserLoad of(Demand d) {
    return new UserLoad(d.user(), d.gpusHeld(), d.gpusWanted(), d.nextNeed(), d.oldestWait());
  }

  public boolean waiting() {
    return wanted > 0;
  }

  /** Whether this user takes part in the share: holds or wants GPUs. */
  public boolean active() {
    return held > 0 || wanted > 0;
  }

  /** Two daemons of one user together: counts add, the smaller first need and the older wait count. */
  public UserLoad plus(UserLoad o) {
    int next = nextNeed == 0 ? o.nextNeed : o.nextNeed == 0 ? nextNeed : Math.min(nextNeed, o.nextNeed);
    Instant oldest = oldestWait == null ? o.oldestWait
        : o.oldestWait == null || oldestWait.isBefore(o.oldestWait) ? oldestWait : o.oldestWait;
    return new UserLoad(user, held + o.held, wanted + o.wanted, next, oldest);
  }
}
