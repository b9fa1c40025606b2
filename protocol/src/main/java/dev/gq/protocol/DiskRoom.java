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
    try {
      // statvfs on the directory itself: no walk of /proc/mounts as a file store lookup makes
      long free = dir.toFile().getUsableSpace();
      if (free >= FULL_BELOW || !Files.isDirectory(dir)) return null;
      return "the disk holding " + dir + " is full (" + free / 1024 + " KiB free)";
    } catch (RuntimeException e) {
      return null;
    }
  }
}
