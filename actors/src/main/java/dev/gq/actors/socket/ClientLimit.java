package dev.gq.actors.socket;

/**
 * How many clients the daemon serves at once, in two budgets: {@link #max()} requests of any kind
 * (a command runs, answers and ends), and besides them {@link #maxStreams()} streams, the commands
 * that follow something until their caller goes ({@code gq logs -f}, {@code gq wait},
 * {@code gq events -f}). A command that turns into a stream moves to the streams' budget, so
 * followers never take the room short commands need ({@link ClientSlots}). Each served client costs one file
 * descriptor for its connection and may open one more (a job's log), so unless the user set the
 * numbers ({@code GQ_MAX_CLIENTS}, {@code GQ_MAX_STREAMS}) the two share what the process's
 * open-file limit leaves free once the daemon is up, less a reserve for jobs and the database,
 * halved; requests are never more than {@value #DEFAULT_MAX}, streams never more than
 * {@value #DEFAULT_MAX_STREAMS}. One client more than a limit gets a one-line refusal instead of
 * exhausting the daemon's descriptors. Pure; the daemon reads the numbers from /proc.
 */
record ClientLimit(int max, int maxStreams, long fdLimit) {
  static final int DEFAULT_MAX = 64;
  static final int DEFAULT_MAX_STREAMS = 128;
  static final int MIN = 4;
  /** Descriptors kept free for what the daemon itself opens while it serves: job logs, pidfds, SQLite. */
  static final int RESERVE = 32;

  /**
   * The limits for a process allowed {@code fdLimit} descriptors with {@code fdsOpen} open;
   * {@code clients} and {@code streams} are the numbers the user set, 0 meaning automatic; what
   * streams get by default is what requests leave of the room.
   */
  static ClientLimit of(int clients, int streams, long fdLimit, int fdsOpen) {
    long room = Math.max(0, (fdLimit - fdsOpen - RESERVE) / 2);
    int max = clients > 0 ? clients : clamp(room / 2, DEFAULT_MAX);
    int maxStreams = streams > 0 ? streams : clamp(room - max, DEFAULT_MAX_STREAMS);
    return new ClientLimit(max, maxStreams, fdLimit);
  }

  private static int clamp(long n, int most) {
    return (int) Math.max(MIN, Math.min(most, n));
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

  /** How many connections are served at once, of both kinds: a new one may take a free stream slot. */
  int total() {
    return max + maxStreams;
  }

  /** The line a client beyond the limit gets. */
  String busy() {
    return "the daemon is already serving " + total() + " clients at once, its limit; try again when some have ended"
        + " (GQ_MAX_CLIENTS and GQ_MAX_STREAMS set the limit; the daemon may open " + fdLimit + " files)";
  }

  /** The line a command gets when it would follow one stream more than {@link #maxStreams()}. */
  String busyStreams() {
    return "the daemon is already following " + maxStreams + " streams at once (logs -f, wait, events -f), its limit;"
        + " end some of them or try again later (GQ_MAX_STREAMS sets the limit; the daemon may open " + fdLimit + " files)";
  }

  /** The line a client gets when the daemon has no file descriptor left to serve it. */
  String outOfFiles() {
    return "the daemon has run out of file descriptors (it may open " + fdLimit
        + "); try again shortly, and see the daemon log if it lasts";
  }
}
