package dev.gq.core.lease;

/**
 * What a file at a GPU's lease name means when it is not a lease file gq can lock. A lease is held
 * only while a regular file under that name is locked; gq opens it without following links. So a
 * name that is a link, a directory or any other non-regular file is no lease at all: nobody holds
 * the GPU through it, and nobody can take its lease either. Whoever may remove it from the sticky
 * directory (root, its owner, the directory's owner) removes it when it takes the lease, so it
 * reads FREE to them; to everyone else the GPU is BLOCKED, naming the owner who can clear it. A
 * directory is removed by no gq (it may hold files): it blocks the GPU for everyone. A
 * regular file this user cannot open (another user's, made without read access for others) may
 * still be locked by a job of its owner's, which this user cannot see: it counts as held (fail
 * closed), BLOCKED, again naming the owner. Pure.
 */
public final class LeaseRules {
  private LeaseRules() {}

  /** Whether the sticky lease directory lets {@code self} remove a file of {@code fileOwner}'s. */
  public static boolean mayRemove(int self, int fileOwner, int dirOwner) {
    return self == 0 || self == fileOwner || self == dirOwner;
  }

  /**
   * The lease of a GPU whose name {@code file} is {@code what} ("a symbolic link", "a directory")
   * of {@code owner}'s: FREE to whoever may remove it (taking the lease removes it), else BLOCKED.
   */
  public static GpuLease notAFile(String file, String what, String owner, int self, int fileOwner, int dirOwner) {
    // a directory may hold files: gq removes none, so it blocks the GPU for everyone until removed
    if (!what.equals(kind('d')) && mayRemove(self, fileOwner, dirOwner)) return GpuLease.FREE;
    return GpuLease.blocked("its lease file " + file + " is " + what + " of " + owner
        + "'s, not a lease: no gq of this user can lease the GPU until " + clearers(owner) + " removes it");
  }

  /** The lease of a GPU whose lease file, {@code owner}'s with {@code mode}, this user cannot open. */
  public static GpuLease closed(String file, String owner, int mode) {
    return GpuLease.blocked("its lease file " + file + " is " + owner + "'s and closed to this user (mode "
        + String.format("%04o", mode & 07777) + "), so a job of " + owner + "'s may hold it: counted as held until "
        + clearers(owner) + " removes it");
  }

  /** Who may remove a file of {@code owner}'s from the sticky lease directory. */
  private static String clearers(String owner) {
    return "root".equals(owner) ? "root" : owner + " or root";
  }

  /** How a non-regular file is named in a reason, from its type letter as {@code ls -l} shows it. */
  public static String kind(char type) {
    return switch (type) {
      case 'l' -> "a symbolic link";
      case 'd' -> "a directory";
      case 'p' -> "a named pipe";
      case 's' -> "a socket";
      case 'c', 'b' -> "a device";
      default -> "a special file";
    };
  }
}
