package dev.gq.actors.socket;

/**
 * How many clients the daemon serves at once. Each served client costs one file descriptor for
 * its connection and may open one more (a job's log), so unless the user set a number
 * ({@code GQ_MAX_CLIENTS}), the limit is what the process's open-file limit leaves free once the
 * daemon is up, less a reserve for jobs and the database, halved, and never above
 * {@value #DEFAULT_MAX}. One client more than the limit gets a one-line refusal instead of
 * exhausting the daemon's descriptors. Pure; the daemon reads the numbers from /proc.
 */
record ClientLimit(int max, long fdLimit) {
  static final int DEFAULT_MAX = 64;
  static final int MIN = 4;
  /** Descriptors kept free for what the daemon itself opens while it serves: job logs, pidfds, SQLite. */
  static final int RESERVE = 32;

  /** The limit for a process allowed {@code fdLimit} descriptors with {@code fdsOpen} open; {@code configured} 0 means automatic. */
  static ClientLimit of(int configured, long fdLimit, int fdsOpen) {
    if (configured > 0) return new ClientLimit(configured, fdLimit);
    long room = (fdLimit - fdsOpen - RESERVE) / 2;
    return new ClientLimit((int) Math.max(MIN, Math.min(DEFAULT_MAX, room)), fdLimit);
  }

  /** The soft "Max open files" limit in the text of /proc/self/limits; {@code Long.MAX_VALUE} when unlimited or absent. */
  static long openFileLimit(String procLimits) {
    for (String line : procLimits.split("\n")) {
      if (!line.startsWith("Max open files")) continue;
      String[] f = line.substring("Max open files".length()).trim().split("\\s+");
      return f.length == 0 || f[0].equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(f[0]);
    }
    return Long.MAX_VALUE;
  }

  /** The line a client beyond the limit gets. */
  String busy() {
    return "the daemon is already serving " + max + " clients at once, its limit; try again when some have ended"
        + " (GQ_MAX_CLIENTS sets the limit; the daemon may open " + fdLimit + " files)";
  }

  /** The line a client gets when the daemon has no file descriptor left to serve it. */
  String outOfFiles() {
    return "the daemon has run out of file descriptors (it may open " + fdLimit
        + "); try again shortly, and see the daemon log if it lasts";
  }
}
