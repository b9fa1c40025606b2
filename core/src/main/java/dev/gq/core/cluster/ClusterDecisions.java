package dev.gq.core.cluster;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the facts from a Slurm cluster mean for the ledger: jobs sbatch accepted are recorded with
 * their Slurm ids (a job no longer waiting by then is named, for the caller to cancel there), and
 * one look at the cluster becomes events: started, queued again by a retry, ended with the code
 * the job's script recorded (TIMEOUT, CANCELLED and the cluster's failures by Slurm's state), gone
 * without a record (INTERRUPTED), or the whole cluster unreachable (its jobs show UNKNOWN and keep
 * their state). Pure.
 */
public final class ClusterDecisions {
  private ClusterDecisions() {}

  /** Records {@code sent} (gq id → Slurm id); the answer: the ids no longer waiting, whose Slurm jobs must be cancelled. */
  public static Decision<List<Long>> sent(Ledger l, Map<Long, String> sent, Instant now) {
    List<LedgerEvent> events = new ArrayList<>();
    List<Long> stale = new ArrayList<>();
    for (Map.Entry<Long, String> e : sent.entrySet()) {
      Job j = l.live().get(e.getKey());
      if (j != null && j.state() == JobState.WAITING && j.spec().onCluster() && !l.settings().clusterIds().containsKey(j.id()))
        events.add(new JobSentToCluster(j.id(), e.getValue(), now));
      else stale.add(e.getKey());
    }
    return Decision.accept(events, stale);
  }

  /** The events one look at the cluster of {@code o.profile()} calls for. */
  public static List<LedgerEvent> observed(Ledger l, ClusterObservation o, Instant now) {
    List<LedgerEvent> events = new ArrayList<>();
    boolean marked = l.settings().unreachable().containsKey(o.profile());
    if (o.error() != null) {
      if (!marked) events.add(new ClusterUnreachable(o.profile(), o.error(), now));
      return events;
    }
    if (marked) events.add(new ClusterReachable(o.profile(), now));
    for (Map.Entry<Long, String> e : l.settings().clusterIds().entrySet()) {
      Job j = l.live().get(e.getKey());
      if (j == null || !o.profile().equals(j.spec().cluster())) continue;
      LedgerEvent ev = next(j, e.getValue(), o.jobs().get(e.getValue()), o.exits().get(j.id()), now);
      if (ev != null) events.add(ev);
    }
    return events;
  }

  private static LedgerEvent next(Job j, String slurmId, SlurmJob s, ExitRecord rec, Instant now) {
    long id = j.id();
    if (s == null && rec == null)
      return new JobInterrupted(id, "Slurm no longer lists job " + slurmId + " and its script left no exit record", now);
    if (s == null || s.ended()) return ended(j, s == null ? null : s.state(), s == null ? null : s.reason(), rec, now);
    if (s.running() && j.state() == JobState.WAITING) return new JobClusterStarted(id, s.node(), now);
    if (s.pending() && j.state() == JobState.RUNNING)
      return new JobRequeued(id, "Slurm queued job " + slurmId + " again (" + s.reason() + ")", now);
    return null;
  }

  private static LedgerEvent ended(Job j, String state, String reason, ExitRecord rec, Instant now) {
    long id = j.id();
    Integer code = rec == null ? null : rec.exitCode();
    if (state == null) state = "COMPLETED";
    return switch (state) {
      case "TIMEOUT" -> new JobTimedOut(id, code, "its time limit on the cluster was reached", now);
      case "CANCELLED" -> j.state() == JobState.CANCELLING ? new JobCancelled(id, "cancelled", now)
          : new JobCancelled(id, reason != null && reason.startsWith("Dependency")
              ? "Slurm cancelled it: a job it waits for did not end as required" : "cancelled on the cluster", now);
      case "OUT_OF_MEMORY" -> new JobExited(id, code == null || code == 0 ? 137 : code, "out of memory on the cluster", now);
      case "NODE_FAIL", "BOOT_FAIL" -> new JobInterrupted(id, "its cluster node failed (" + state + ")", now);
      case "PREEMPTED", "DEADLINE", "REVOKED" -> new JobInterrupted(id, "Slurm ended it: " + state, now);
      default -> rec == null
          ? new JobExited(id, null, "Slurm reports " + state + " and its script left no exit record", now)
          : new JobExited(id, code, rec.kind() == ExitRecord.Kind.EXEC_FAILED ? rec.text() : null, now);
    };
  }
}
