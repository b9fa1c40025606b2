package dev.gq.host.proc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parser of /proc/locks: for one file (its device's major and minor number and its inode), the pid
 * of each lock held on it, flock(2) and POSIX locks apart. Lines of processes waiting for a lock
 * ({@code ->}), open-file-description locks (no pid) and leases are passed over. Pure: takes text.
 */
public final class ProcLocks {
  private ProcLocks() {}

  /** The pids holding locks on the file: {@code flock} (the pid that took each) and {@code posix}. */
  public record Holders(List<Long> flock, List<Long> posix) {}

  /** One file as /proc/locks names it: its device's major and minor number and its inode. */
  public record FileKey(int major, int minor, long ino) {}

  /**
   * The holders of locks on the file on device {@code major:minor} with inode {@code ino}, from the
   * text of /proc/locks; lines it cannot read are passed over.
   */
  public static Holders parse(String text, int major, int minor, long ino) {
    return index(text).getOrDefault(new FileKey(major, minor, ino), new Holders(List.of(), List.of()));
  }

  /** The holders of every file /proc/locks names, read in one pass over its text. */
  public static Map<FileKey, Holders> index(String text) {
    Map<FileKey, Holders> out = new HashMap<>();
    for (String line : text.split("\n")) {
      String[] t = line.trim().split("\\s+");
      if (t.length < 6 || "->".equals(t[1]) || !t[0].endsWith(":")) continue;
      FileKey key = key(t[5]);
      long pid;
      try {
        pid = Long.parseLong(t[4]);
      } catch (NumberFormatException e) {
        continue;
      }
      if (key == null || pid < 1) continue; // another pid namespace's, or an open file description's lock
      Holders h = out.computeIfAbsent(key, k -> new Holders(new ArrayList<>(), new ArrayList<>()));
      if ("FLOCK".equals(t[1])) h.flock().add(pid);
      else if ("POSIX".equals(t[1])) h.posix().add(pid);
    }
    return out;
  }

  /** The file "fe:00:2146745" names (major and minor in hex, inode in decimal); null when it names none. */
  private static FileKey key(String field) {
    String[] p = field.split(":");
    if (p.length != 3) return null;
    try {
      return new FileKey(Integer.parseInt(p[0], 16), Integer.parseInt(p[1], 16), Long.parseLong(p[2]));
    } catch (NumberFormatException e) {
      return null;
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
