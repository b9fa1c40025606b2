package dev.gq.core.proc;

import java.util.Collection;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * Whether any process of a job is left, the rule that decides when a job ends: a process /proc
 * shows alive (not a zombie) in the job's session or process group, or one carrying the job's
 * GQ_JOB_TAG anywhere (a child that left the session with {@code setsid} is still the job's own,
 * and may compute on its GPUs). The daemon itself never counts: one started from inside a job
 * inherited that job's tag. The runner asks it when the shim has exited; the Reconciler at start-up.
 */
public final class JobProcesses {
  private JobProcesses() {}

  /**
   * Any process of {@code all} (a look at /proc) in session {@code sid} or group {@code pgid}, or,
   * among {@code pids} (every PID of that look), any but {@code selfPid} for which
   * {@code carriesTag} holds. Environments are read only when the session and group left none.
   */
  public static boolean anyLeft(long pgid, long sid, List<ProcInfo> all, Collection<Long> pids, long selfPid,
      LongPredicate carriesTag) {
    return inSessionOrGroup(pgid, sid, all) || anyCarryingTag(pids, selfPid, carriesTag);
  }

  /** Whether {@code all} holds a live process of session {@code sid} or group {@code pgid}. */
  public static boolean inSessionOrGroup(long pgid, long sid, List<ProcInfo> all) {
    return all.stream().anyMatch(p -> !p.zombie() && (p.pgid() == pgid || p.sid() == sid));
  }

  /**
   * Whether a process of {@code pids} other than {@code selfPid} carries the job's tag, as
   * {@code carriesTag} reads it (false for a zombie, a process gone, or one whose environment this
   * user cannot read).
   */
  public static boolean anyCarryingTag(Collection<Long> pids, long selfPid, LongPredicate carriesTag) {
    for (long pid : pids) if (pid != selfPid && carriesTag.test(pid)) return true;
    return false;
  }
}
