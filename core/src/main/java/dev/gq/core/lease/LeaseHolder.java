package dev.gq.core.lease;

import dev.gq.core.job.PrintableText;
import java.util.Optional;

/**
 * Who holds a GPU's machine-wide lease: the gq instance (its user's uid and name, and its data
 * directory) and the job. Written into the lease file as one line by the holder, read by every gq
 * on the machine to say who holds a GPU ("alice's job 12"). Only the lock decides who holds the
 * GPU, and only the kernel says whose process holds the lock: a line read from a file is
 * {@link Basis#LINE} until {@link LockWitness#attribute} has compared it with the kernel's answer.
 * A holder {@link #counted} is charged to its uid by the fair share; {@code note} says what the
 * kernel did not confirm (null when nothing).
 */
public record LeaseHolder(Instance instance, long jobId, Basis basis, String note) {

  private static final String PREFIX = "gq-lease ";

  /** What the holder's uid rests on. */
  public enum Basis {
    /** Not checked: this gq's own take, or a test's fake. */
    TAKEN,
    /** The kernel: the uid of a live process that holds the file's lock. */
    KERNEL,
    /** Only the file's line: no live process the kernel names confirms it; never charged to anyone. */
    LINE
  }

  /** One gq instance: a user and a data directory (absolute). */
  public record Instance(int uid, String user, String dataDir) {
    public Instance {
      if (user == null || user.isBlank() || user.chars().anyMatch(c -> c <= ' ' || PrintableText.hidden((char) c)))
        user = "uid-" + uid;
    }
  }

  public LeaseHolder(Instance instance, long jobId) {
    this(instance, jobId, Basis.TAKEN, null);
  }

  /** Whether the fair share charges this lease to {@link #instance}'s uid. */
  public boolean counted() {
    return basis != Basis.LINE;
  }

  /** Whether the holder's line names a job (a holder the kernel named without a readable line does not). */
  public boolean namesJob() {
    return jobId > 0;
  }

  /** The line written into the lease file: {@code gq-lease uid=1000 user=alice job=12 data=/home/alice/...}. */
  public String line() {
    return PREFIX + "uid=" + instance.uid() + " user=" + instance.user() + " job=" + jobId
        + " data=" + instance.dataDir() + "\n";
  }

  /**
   * The holder a lease file names, or empty when its text is not a whole line in that form or holds
   * a character that could reach a terminal as a control; {@link Basis#LINE} until attributed.
   */
  public static Optional<LeaseHolder> parse(String text) {
    if (text == null || !text.startsWith(PREFIX) || !text.endsWith("\n")) return Optional.empty();
    String body = text.substring(PREFIX.length(), text.length() - 1);
    if (PrintableText.hasHidden(body)) return Optional.empty();
    String[] parts = body.split(" ", 4);
    if (parts.length != 4 || !parts[0].startsWith("uid=") || !parts[1].startsWith("user=")
        || !parts[2].startsWith("job=") || !parts[3].startsWith("data=")) return Optional.empty();
    try {
      int uid = Integer.parseInt(parts[0].substring(4));
      long job = Long.parseLong(parts[2].substring(4));
      String data = parts[3].substring(5);
      if (uid < 0 || job < 1 || data.isEmpty()) return Optional.empty();
      return Optional.of(new LeaseHolder(new Instance(uid, parts[1].substring(5), data), job, Basis.LINE, null));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** Whether this lease belongs to {@code self}: the same user and data directory. */
  public boolean of(Instance self) {
    return self != null && instance.uid() == self.uid() && instance.dataDir().equals(self.dataDir());
  }

  /**
   * "alice's job 12", "job 12 of the gq in /srv/gq-b" for the same user's other instance, "carol's
   * gq job" when the kernel named the user but no line names the job; with the note, if any.
   */
  public String describe(Instance self) {
    String who;
    if (!namesJob()) who = instance.user() + "'s gq job";
    else if (self != null && self.uid() == instance.uid() && !of(self)) who = "job " + jobId + " of the gq in " + instance.dataDir();
    else who = instance.user() + "'s job " + jobId;
    return note == null ? who : who + " (" + note + ")";
  }

  /** The same holder: the same instance and job, whatever its uid was learnt from. */
  @Override
  public boolean equals(Object o) {
    return o instanceof LeaseHolder h && h.instance.equals(instance) && h.jobId == jobId;
  }

  @Override
  public int hashCode() {
    return instance.hashCode() * 31 + Long.hashCode(jobId);
  }
}
