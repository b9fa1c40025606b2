package dev.gq.core.lease;

import java.util.Optional;

/**
 * Who holds a GPU's machine-wide lease: the gq instance (its user's uid and name, and its data
 * directory) and the job. Written into the lease file as one line by the holder, read by every gq
 * on the machine to say who holds a GPU ("alice's job 12"). Only the lock decides; the line is for
 * display and for telling this instance's own jobs from everyone else's.
 */
public record LeaseHolder(Instance instance, long jobId) {

  private static final String PREFIX = "gq-lease ";

  /** One gq instance: a user and a data directory (absolute). */
  public record Instance(int uid, String user, String dataDir) {
    public Instance {
      if (user == null || user.isBlank() || user.chars().anyMatch(c -> c <= ' ')) user = "uid-" + uid;
    }
  }

  /** The line written into the lease file: {@code gq-lease uid=1000 user=alice job=12 data=/home/alice/...}. */
  public String line() {
    return PREFIX + "uid=" + instance.uid() + " user=" + instance.user() + " job=" + jobId
        + " data=" + instance.dataDir() + "\n";
  }

  /** The holder a lease file names, or empty when its text is not a whole line in that form. */
  public static Optional<LeaseHolder> parse(String text) {
    if (text == null || !text.startsWith(PREFIX) || !text.endsWith("\n")) return Optional.empty();
    String body = text.substring(PREFIX.length(), text.length() - 1);
    if (body.indexOf('\n') >= 0) return Optional.empty();
    String[] parts = body.split(" ", 4);
    if (parts.length != 4 || !parts[0].startsWith("uid=") || !parts[1].startsWith("user=")
        || !parts[2].startsWith("job=") || !parts[3].startsWith("data=")) return Optional.empty();
    try {
      int uid = Integer.parseInt(parts[0].substring(4));
      long job = Long.parseLong(parts[2].substring(4));
      String data = parts[3].substring(5);
      if (uid < 0 || job < 1 || data.isEmpty()) return Optional.empty();
      return Optional.of(new LeaseHolder(new Instance(uid, parts[1].substring(5), data), job));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Whether this lease belongs to {@code self}: the same user and data directory. */
  public boolean of(Instance self) {
    return self != null && instance.uid() == self.uid() && instance.dataDir().equals(self.dataDir());
  }

  /** "alice's job 12", or "job 12 of the gq in /srv/gq-b" for the same user's other instance. */
  public String describe(Instance self) {
    if (self != null && self.uid() == instance.uid() && !of(self))
      return "job " + jobId + " of the gq in " + instance.dataDir();
    return instance.user() + "'s job " + jobId;
  }
}
