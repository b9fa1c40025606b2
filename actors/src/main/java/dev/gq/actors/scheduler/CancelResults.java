package dev.gq.actors.scheduler;

import dev.gq.core.job.Job;
import dev.gq.core.ledger.Ledger;
import java.util.ArrayList;
import java.util.List;

/** What a cancel did to each id, decided from the ledger as it was before the cancel. */
final class CancelResults {
  private CancelResults() {}

  static List<Scheduler.CancelResult> of(Ledger before, List<Long> ids) {
    List<Scheduler.CancelResult> out = new ArrayList<>();
    for (long id : ids) out.add(one(before, id));
    return out;
  }

  private static Scheduler.CancelResult one(Ledger l, long id) {
    Job j = l.live().get(id);
    if (j == null)
      return l.issued(id)
          ? new Scheduler.CancelResult(id, "ALREADY_ENDED", "job " + id + " has already ended")
          : new Scheduler.CancelResult(id, "UNKNOWN", "job " + id + " does not exist");
    return switch (j.state()) {
      case WAITING -> new Scheduler.CancelResult(id, "CANCELLED", "job " + id + " cancelled");
      case STARTING, RUNNING -> new Scheduler.CancelResult(id, "STOPPING", "job " + id + ": stopping (SIGTERM, then SIGKILL after the grace period)");
      case CANCELLING -> new Scheduler.CancelResult(id, "ALREADY_CANCELLING", "job " + id + " is already being cancelled");
      default -> new Scheduler.CancelResult(id, "ALREADY_ENDED", "job " + id + " is " + j.state() + " and cannot be cancelled");
    };
  }
}
