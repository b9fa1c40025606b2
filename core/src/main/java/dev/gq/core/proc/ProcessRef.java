package dev.gq.core.proc;

/**
 * One process by its pid and its /proc start ticks: on one boot, no two processes share both, so a
 * recycled pid is never taken for the process it names.
 */
public record ProcessRef(long pid, long startTicks) {

  public static ProcessRef of(ProcInfo p) {
    return new ProcessRef(p.pid(), p.startTicks());
  }

  /** Whether {@code p} is this very process. */
  public boolean is(ProcInfo p) {
    return p.pid() == pid && p.startTicks() == startTicks;
  }
}
