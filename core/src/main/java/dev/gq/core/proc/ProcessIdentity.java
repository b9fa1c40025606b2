package dev.gq.core.proc;

/**
 * Who a job's leader is, recorded at launch: pid, its process group and session (both equal to
 * the pid, since the shim leads its own session), the /proc start time in ticks and the boot id.
 * A process is the recorded one only if pid, start ticks and boot id all match.
 */
public record ProcessIdentity(long pid, long pgid, long sid, long startTicks, String bootId) {

  /** Whether {@code info}, seen on boot {@code currentBootId}, is this very process. */
  public boolean matches(ProcInfo info, String currentBootId) {
    return info.pid() == pid && info.startTicks() == startTicks && bootId.equals(currentBootId);
  }
}
