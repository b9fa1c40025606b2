package dev.gq.actors.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the disk holding gq's data directory is (nearly) full, in words a user can act on. Used
 * to refuse new submissions before the journal write would fail, and to explain a job that ended
 * while its log or exit record could not be written. The daemon keeps a small reserve file in the
 * data directory and gives it up when the disk fills, so the events that record such an ending
 * can still be written.
 */
public final class DiskSpace {
  /** Below this many free bytes (twice the reserve) the disk counts as full. */
  public static final long FULL_BELOW = dev.gq.protocol.DiskRoom.FULL_BELOW;

  /** Size of the reserve file: room for many events once it is given up. */
  public static final int RESERVE_BYTES = 1 << 20;

  private static final String RESERVE = ".reserve";

  private DiskSpace() {}

  /** Makes sure the reserve file exists (when there is room for it). */
  public static void ensureReserve(Path dataDir) {
    Path f = dataDir.resolve(RESERVE);
    try {
      if (Files.size(f) == RESERVE_BYTES) return;
    } catch (IOException missing) {
      // write it below
    }
    try {
      if (Files.getFileStore(dataDir).getUsableSpace() < 4L * RESERVE_BYTES) return;
      Files.write(f, new byte[RESERVE_BYTES]);
    } catch (IOException | RuntimeException e) {
      try {
        Files.deleteIfExists(f);
      } catch (IOException ignored) {
        // nothing more to do
      }
    }
  }

  /** Gives the reserve up; true when there was one. */
  public static boolean releaseReserve(Path dataDir) {
    try {
      return Files.deleteIfExists(dataDir.resolve(RESERVE));
    } catch (IOException e) {
      return false;
    }
  }

  /** A short sentence when the disk holding {@code dir} is full, else null. */
  public static String fullNote(Path dir) {
    return dev.gq.protocol.DiskRoom.fullNote(dir);
  }
}
