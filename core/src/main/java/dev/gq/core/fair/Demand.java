package dev.gq.core.fair;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one user's gq daemon publishes in the shared lease directory for every other daemon to
 * read: who (user name and uid), which daemon (its pid, the pid's /proc start time in clock ticks
 * and the boot id, so a reader can tell a file whose daemon is gone, see {@link DemandRules}), how
 * many of its jobs wait, how many GPUs they want in all, how many the first of them needs, since
 * when the user has waited (the later of the first waiting job's submit and the user's last start,
 * so that users below the share take turns, see {@link FairTurn}), and how many GPUs its jobs hold (from its leases). Counts and the
 * names the user chose only: never a command, a directory or an environment. Written as a few
 * {@code key=value} lines after a {@code gq-demand 1} header; {@link #parse} refuses anything else.
 */
public record Demand(String user, int uid, long pid, long startTicks, String bootId, int jobsWaiting,
    int gpusWanted, int nextNeed, Instant oldestWait, int gpusHeld, Instant written) {

  public static final String HEADER = "gq-demand 1";
  /** The most bytes a demand file may have; a larger one is ignored unread. */
  public static final int MAX_BYTES = 1024;

  /** Whether this user waits for GPUs (a file with nothing waiting is removed, not written). */
  public boolean waiting() {
    return gpusWanted > 0;
  }

  /** The file's text. */
  public String text() {
    return HEADER + "\nuser=" + user + "\nuid=" + uid + "\npid=" + pid + "\nstart=" + startTicks + "\nboot=" + bootId
        + "\nwaiting=" + jobsWaiting + "\nwanted=" + gpusWanted + "\nnext=" + nextNeed
        + "\noldest=" + (oldestWait == null ? "-" : oldestWait.toString()) + "\nheld=" + gpusHeld
        + "\nwritten=" + written + "\n";
  }

  /** The demand {@code text} states, or why it is not a demand file (one phrase). */
  public static Parsed parse(String text) {
    if (text == null || !text.startsWith(HEADER + "\n") || !text.endsWith("\n")) return Parsed.bad("not a gq-demand 1 file");
    Map<String, String> kv = new HashMap<>();
    for (String line : text.substring(HEADER.length() + 1).split("\n")) {
      int eq = line.indexOf('=');
      if (eq < 1 || kv.put(line.substring(0, eq), line.substring(eq + 1)) != null) return Parsed.bad("a malformed line");
    }
    try {
      String user = kv.get("user");
      if (user == null || !user.matches("[A-Za-z0-9_.-][A-Za-z0-9_.$-]{0,31}")) return Parsed.bad("no valid user name");
      String boot = kv.get("boot");
      if (boot == null || !boot.matches("[0-9a-f-]{1,64}")) return Parsed.bad("no valid boot id");
      String oldest = kv.get("oldest");
      Demand d = new Demand(user, (int) number(kv, "uid", Integer.MAX_VALUE), number(kv, "pid", 1L << 32),
          number(kv, "start", Long.MAX_VALUE), boot, (int) number(kv, "waiting", 1_000_000),
          (int) number(kv, "wanted", 1_000_000), (int) number(kv, "next", 4096),
          "-".equals(oldest) ? null : Instant.parse(oldest), (int) number(kv, "held", 4096), Instant.parse(kv.get("written")));
      if (kv.size() != 11) return Parsed.bad("unknown keys");
      if (d.gpusWanted() > 0 && (d.nextNeed() < 1 || d.nextNeed() > d.gpusWanted() || d.oldestWait() == null))
        return Parsed.bad("inconsistent counts");
      return new Parsed(Optional.of(d), null);
    } catch (RuntimeException e) {
      return Parsed.bad("a missing or malformed value");
    }
  }

  private static long number(Map<String, String> kv, String key, long max) {
    String v = kv.get(key);
    if (v == null || !v.matches("\\d{1,19}")) throw new IllegalArgumentException(key);
    long n = Long.parseLong(v);
    if (n > max) throw new IllegalArgumentException(key);
    return n;
  }

  /** A demand, or why the text is none. */
  public record Parsed(Optional<Demand> demand, String problem) {
    static Parsed bad(String why) {
      return new Parsed(Optional.empty(), why);
    }
  }
}
