package dev.gq.host.proc;

import java.util.ArrayList;
import java.util.List;

/**
 * Parser of /proc/locks: for one file (its device's major and minor number and its inode), the pid
 * of each lock held on it, flock(2) and POSIX locks apart. Lines of processes waiting for a lock
 * ({@code ->}), open-file-description locks (no pid) and leases are passed over. Pure: takes text.
 */
public final class ProcLocks {
  private ProcLocks() {}

  /** The pids holding locks on the file: {@code flock} (the pid that took each) and {@code posix}. */
  public record Holders(List<Long> flock, List<Long> posix) {}

  /**
   * The holders of locks on the file on device {@code major:minor} with inode {@code ino}, from the
   * text of /proc/locks; lines it cannot read are passed over.
   */
  public static Holders parse(String text, int major, int minor, long ino) {
    List<Long> flock = new ArrayList<>();
    List<Long> posix = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] t = line.trim().split("\\s+");
      if (t.length < 6 || "->".equals(t[1])) continue;
      if (!t[0].endsWith(":") || !matches(t[5], major, minor, ino)) continue;
      long pid;
      try {
        pid = Long.parseLong(t[4]);
      } catch (NumberFormatException e) {
        continue;
      }
      if (pid < 1) continue; // another pid namespace's, or an open file description's lock
      if ("FLOCK".equals(t[1])) flock.add(pid);
      else if ("POSIX".equals(t[1])) posix.add(pid);
    }
    return new Holders(flock, posix);
  }

  /** Whether {@code field} ("fe:00:2146745": major and minor in hex, inode in decimal) names the file. */
  private static boolean matches(String field, int major, int minor, long ino) {
    String[] p = field.split(":");
    if (p.length != 3) return false;
    try {
      return Integer.parseInt(p[0], 16) == major && Integer.parseInt(p[1], 16) == minor && Long.parseLong(p[2]) == ino;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** The major number of a device as stat(2) encodes it (glibc's dev_t). */
  public static int major(long dev) {
    return (int) (((dev >>> 32) & 0xfffff000L) | ((dev >>> 8) & 0xfffL));
  }

  /** The minor number of a device as stat(2) encodes it (glibc's dev_t). */
  public static int minor(long dev) {
    return (int) (((dev >>> 12) & 0xffffff00L) | (dev & 0xffL));
  }
}
