package dev.gq.core.proc;

/**
 * The fields of /proc/PID/stat that gq uses: parent, process group, session, the start time in
 * clock ticks since boot (which with the boot id names one process across PID reuse), and the
 * one-letter state ('Z' for a zombie).
 */
public record ProcInfo(long pid, long ppid, long pgid, long sid, long startTicks, char state, String comm) {

  public boolean zombie() {
    return state == 'Z' || state == 'X';
  }
}
