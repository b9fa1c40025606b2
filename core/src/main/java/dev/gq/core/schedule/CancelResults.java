package dev.gq.core.schedule;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import java.util.ArrayList;
import java.util.List;

/** What a cancel did to each id, decided from the ledger as it was before the cancel. */
final class CancelResults {
  private CancelResults() {}

  static List<CancelResult> of(Ledger before, List<Long> ids) {
    List<CancelResult> out = new ArrayList<>();
    for (long id : ids) out.add(one(before, id));
    return out;
  }

  private static CancelResult one(Ledger l, long id) {
    Job j = l.live().get(id);
    if (j == null)
      return l.issued(id)
          ? new CancelResult(id, "ALREADY_ENDED", "job " + id + " has already ended")
          : new CancelResult(id, "UNKNOWN", "job " + id + " does not exist");
    if (j.clusterId() != null && (j.state() == JobState.WAITING || j.state() == JobState.RUNNING))
      return new CancelResult(id, "STOPPING", "job " + id + ": cancelling Slurm job " + j.clusterId() + " (scancel)");
    return switch (j.state()) {
      case WAITING -> new CancelResult(id, "CANCELLED", "job " + id + " cancelled");
      case STARTING, RUNNING, PREEMPTING -> new CancelResult(id, "STOPPING", "job " + id + ": stopping (SIGTERM, then SIGKILL after the grace period)");
      case CANCELLING -> new CancelResult(id, "ALREADY_CANCELLING", "job " + id + " is already being cancelled");
      default -> new CancelResult(id, "ALREADY_ENDED", "job " + id + " is " + j.state() + " and cannot be cancelled");
    };
  }
}
