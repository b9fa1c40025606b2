package dev.gq.core.proc;

/**
 * Who a job's leader is, recorded at launch: pid, its process group and session (both equal to
 * the pid, since the shim leads its own session), the /proc start time in ticks and the boot id.
 * A process is the recorded one only if pid, start ticks and boot id all match. An adopted
 * process (started by hand, then given to gq) records group and session 0: they are not the job's
 * (they may be the user's login shell's), and nothing may signal them; see {@link #adopted}.
 */
public record ProcessIdentity(long pid, long pgid, long sid, long startTicks, String bootId) {

  /** Whether {@code info}, seen on boot {@code currentBootId}, is this very process. */
  public boolean matches(ProcInfo info, String currentBootId) {
    return info.pid() == pid && info.startTicks() == startTicks && bootId.equals(currentBootId);
  }

  /** The identity of a process adopted as a job: no group or session of its own (0). */
  public static ProcessIdentity adoptedProcess(long pid, long startTicks, String bootId) {
    return new ProcessIdentity(pid, 0, 0, startTicks, bootId);
  }

  /**
   * Whether this is an adopted process's identity: a job's shim leads its own session and group, so
   * only an adopted one records 0 for both (no process but the kernel's own has session 0).
   */
  public boolean adopted() {
    return pgid == 0 && sid == 0;
  }
}
