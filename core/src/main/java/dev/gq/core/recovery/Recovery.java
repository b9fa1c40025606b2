package dev.gq.core.recovery;

import dev.gq.core.end.EndReasons;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.ledger.EndStates;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The start-up rules for one live job, first match: the machine rebooted → INTERRUPTED; the exit
 * record exists and nothing of it lives → DONE/FAILED with its code, ended when the record was written (while something lives, watch it);
 * a reserved job never recorded as launched → adopt the processes carrying its tag, else back to
 * WAITING; a GPU it holds is gone (on a good reading) → ORPHANED; alive → reattach; dead with no exit
 * record → INTERRUPTED (an adopted job, which never has one: EXITED, its exit status unknown). An
 * INTERRUPTED reason adds the note of a full disk, which may have kept the exit status from being
 * written. The periodic pass applies the same rules to jobs no runner watches ({@link #recheck}). A job
 * a Slurm cluster runs gets no verdict here (its state comes from Slurm). Pure: the Scheduler's
 * decision applies it to what the reconciler found ({@link RecoveryFacts}); it returns the events to
 * persist and whether a runner must watch the job.
 */
public final class Recovery {
  private Recovery() {}

  /** The events for one job, and whether it still has processes to watch. */
  public record Verdict(List<LedgerEvent> events, boolean watch) {}

  private static final String DOWN = "the job's processes ended while the daemon was down and left no exit status";
  private static final String UNSEEN = "the job's processes ended while no runner watched them and left no exit status";

  /**
   * The start-up verdicts of the jobs {@code facts} names that are live in {@code l}, in the order of
   * {@code facts}; a job that ended since it was checked gets none.
   */
  public static Map<Long, Verdict> decideAll(Ledger l, Map<Long, RecoveryFacts> facts, Instant now) {
    Map<Long, Verdict> out = new LinkedHashMap<>();
    facts.forEach((id, f) -> {
      Job j = l.live().get(id);
      if (j != null) out.put(id, decide(j, f, now));
    });
    return out;
  }

  /** The start-up verdict. */
  public static Verdict decide(Job j, RecoveryFacts f, Instant now) {
    return decide(j, f, now, DOWN);
  }

  /** The same rules for a job checked while the daemon runs, which no runner was watching. */
  public static Verdict recheck(Job j, RecoveryFacts f, Instant now) {
    return decide(j, f, now, UNSEEN);
  }

  private static Verdict decide(Job j, RecoveryFacts f, Instant now, String deadReason) {
    // a cluster job has no process here: the cluster bridge follows it through Slurm
    if (j.state() == JobState.WAITING || j.spec().onCluster()) return new Verdict(List.of(), false);
    long id = j.id();
    if (j.identity() != null && !j.identity().bootId().equals(f.bootId()))
      return end(interrupted(id, "the machine rebooted while the job was " + j.state(), f, now));
    // Launched but never recorded: whatever carries its tag is the job, even after its shim wrote a record.
    if (j.identity() == null && f.tagged().isPresent())
      return new Verdict(List.of(new JobLaunched(id, f.tagged().get(), now)), true);
    // Processes left in its session or group may still use its GPUs: watch them; the runner reads the record after.
    if (f.exit().isPresent() && f.alive()) return new Verdict(List.of(), true);
    if (f.exit().isPresent()) return end(exited(j, f.exit().get(), now));
    if (j.identity() == null)
      return end(new JobRequeued(id, "the daemon stopped before launching it; no process of it exists", now));
    if (f.presentGpus() != null && j.state() != JobState.ORPHANED && missing(j, f) != null) {
      String reason = "GPU " + missing(j, f) + " it holds is no longer present";
      return new Verdict(List.of(new JobOrphaned(id, reason, now)), f.alive());
    }
    if (j.state() == JobState.ORPHANED && f.presentGpus() != null && missing(j, f) == null && f.alive())
      return new Verdict(List.of(new JobRecovered(id, now)), true);
    if (f.alive()) return new Verdict(List.of(), true);
    if (j.adopted()) return end(new JobExited(id, null, EndStates.UNKNOWN_STATUS, now));
    return end(interrupted(id, deadReason, f, now));
  }

  /** Each INTERRUPTED reason says when a full disk kept the shim from writing the exit status. */
  private static JobInterrupted interrupted(long id, String reason, RecoveryFacts f, Instant now) {
    return new JobInterrupted(id, EndReasons.unrecorded(reason, f.diskFull()), now);
  }

  /**
   * The end the record tells, at the time it was written (the job may have ended long before the
   * daemon looked); a job never recorded as launched keeps the record's pid, for display only.
   */
  private static JobExited exited(Job j, ExitRecord r, Instant now) {
    String reason = r.kind() == ExitRecord.Kind.EXEC_FAILED ? r.text() : null;
    return new JobExited(j.id(), r.exitCode(), reason, r.endTime(j.startTime(), now), j.identity() == null ? r.pid() : null);
  }

  private static String missing(Job j, RecoveryFacts f) {
    for (GpuSlot s : j.gpus()) if (!f.presentGpus().contains(s.uuid())) return s.uuid();
    return null;
  }

  private static Verdict end(LedgerEvent e) {
    return new Verdict(List.of(e), false);
  }
}
