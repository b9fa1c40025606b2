package dev.gq.core.lease;

import java.util.List;

/**
 * What the kernel says of who holds a lease or share file's lock, read from /proc/locks: the users
 * of the live processes that hold a POSIX read lock on it (every gq job's shim keeps one on each of
 * its lease and share files for its whole life, and the kernel drops it with the process), and the
 * user of the process that took its flock when that process still lives ({@code takerUid}, -1 when
 * it has ended or cannot be seen). Nothing a file says enters here. {@link #attribute} compares a
 * file's line with it. Pure.
 */
public record LockWitness(List<Person> markers, Person taker) {

  /** A user as the kernel knows it: uid, and the login name the user database gives it. */
  public record Person(int uid, String user) {}

  /** The kernel names nobody (the file's lock was taken by a process that has ended, and no marker). */
  public static final LockWitness NONE = new LockWitness(List.of(), null);

  public LockWitness {
    markers = markers == null ? List.of() : List.copyOf(markers);
  }

  /**
   * The holder to show and charge for a locked file whose line reads as {@code line} (null when
   * unreadable): the line's holder when the kernel names its uid ({@link LeaseHolder.Basis#KERNEL});
   * else the user the kernel names, with a note of what the line claims; else, when the kernel
   * names nobody, the line's holder marked {@link LeaseHolder.Basis#LINE} (shown, never charged);
   * null when neither names anyone.
   */
  public static LeaseHolder attribute(LeaseHolder line, LockWitness k) {
    Person named = k.named(line == null ? -1 : line.instance().uid());
    if (named == null) {
      if (line == null) return null;
      return new LeaseHolder(line.instance(), line.jobId(), LeaseHolder.Basis.LINE,
          "unconfirmed: no live process holds its lock");
    }
    if (line != null && line.instance().uid() == named.uid())
      return new LeaseHolder(new LeaseHolder.Instance(named.uid(), named.user(), line.instance().dataDir()), line.jobId(),
          LeaseHolder.Basis.KERNEL, null);
    String note = line == null ? "its lease line is unreadable"
        : "its line claims " + line.instance().user() + " (uid " + line.instance().uid() + ")";
    return new LeaseHolder(new LeaseHolder.Instance(named.uid(), named.user(), ""), 0, LeaseHolder.Basis.KERNEL, note);
  }

  /**
   * The user the kernel names as the holder: among the markers, {@code claimedUid} if it is one of
   * them, else the first; without markers, the live taker; null when there is neither.
   */
  Person named(int claimedUid) {
    if (!markers.isEmpty()) {
      for (Person p : markers) if (p.uid() == claimedUid) return p;
      return markers.get(0);
    }
    return taker;
  }
}
