package dev.gq.protocol;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the disk holding a directory is (nearly) full, in words a user can act on. One rule for
 * the daemon (which refuses new jobs and explains failed writes with it) and the client (which
 * names a full disk when the daemon could not even write why it did not start).
 */
public final class DiskRoom {
  /** Below this many free bytes the disk counts as full. */
  public static final long FULL_BELOW = 2L << 20;

  private DiskRoom() {}

  /** "the disk holding DIR is full (N KiB free)" when it is, else null (also when it cannot be read). */
  public static String fullNote(Path dir) {
    long free = freeWhenFull(dir);
    return free < 0 ? null : note(dir, free);
  }

  /**
   * The note of a full disk holding {@code dir} with {@code free} bytes free; the daemon's reports carry
   * the same facts as core's {@code DiskFull}, which words them alike (the client cannot depend on core).
   */
  public static String note(Path dir, long free) {
    return "the disk holding " + dir + " is full (" + free / 1024 + " KiB free)";
  }

  /** The bytes free on the disk holding {@code dir} when it counts as full; -1 when it has room or cannot be read. */
  public static long freeWhenFull(Path dir) {
    try {
      // statvfs on the directory itself: no walk of /proc/mounts as a file store lookup makes
      long free = dir.toFile().getUsableSpace();
      return free >= FULL_BELOW || !Files.isDirectory(dir) ? -1 : free;
    } catch (RuntimeException e) {
      return -1;
    }
  }
}
