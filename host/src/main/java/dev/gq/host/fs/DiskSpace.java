package dev.gq.host.fs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The reserve kept for a full disk: the daemon keeps a small file in the data directory and gives
 * it up when the disk fills, so the events that record a job ending then can still be written. The
 * reserve is {@code <data>/.reserve}, 1 MiB of zeros, mode 0600. Whether the disk is full, and the
 * words for it, are {@code dev.gq.protocol.DiskRoom}'s (the client says it too).
 */
public final class DiskSpace {
  /** Size of the reserve file: room for many events once it is given up. */
  public static final int RESERVE_BYTES = 1 << 20;

  private static final String RESERVE = ".reserve";
  private static final Set<PosixFilePermission> PRIVATE = PosixFilePermissions.fromString("rw-------");

  private DiskSpace() {}

  /** Makes sure the reserve file exists (when there is room for it), private (0600) like every gq file. */
  public static void ensureReserve(Path dataDir) {
    Path f = dataDir.resolve(RESERVE);
    try {
      if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && Files.size(f) == RESERVE_BYTES) {
        Files.setPosixFilePermissions(f, PRIVATE); // one written by an earlier version was 0644
        return;
      }
      Files.deleteIfExists(f);
    } catch (IOException | RuntimeException e) {
      // written below, or given up
    }
    try {
      if (dataDir.toFile().getUsableSpace() < 4L * RESERVE_BYTES) return;
      // CREATE_NEW: never through a link planted in its place
      try (SeekableByteChannel ch = Files.newByteChannel(f, Set.of(StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PRIVATE))) {
        ByteBuffer zeros = ByteBuffer.allocate(RESERVE_BYTES);
        while (zeros.hasRemaining()) ch.write(zeros);
      }
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
}
