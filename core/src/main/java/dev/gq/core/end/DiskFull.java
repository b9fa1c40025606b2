package dev.gq.core.end;

import java.nio.file.Path;
import java.util.Objects;

/**
 * The disk holding {@code dir} was full when a runner or the reconciler looked: {@code freeBytes}
 * were free, below {@code DiskRoom}'s bound. A fact of a report ({@link EndSeen}, {@code RecoveryFacts}),
 * worded here only ({@link #text}); the reasons of a job's end add it to theirs ({@link EndReasons}).
 */
public record DiskFull(String dir, long freeBytes) {
  public DiskFull {
    Objects.requireNonNull(dir, "dir");
  }

  /** The disk of {@code dir} with {@code freeBytes} free; null for a negative count, which says it had room. */
  public static DiskFull of(Path dir, long freeBytes) {
    return freeBytes < 0 ? null : new DiskFull(dir.toString(), freeBytes);
  }

  /** "the disk holding /data/run is full (512 KiB free)". */
  public String text() {
    return "the disk holding " + dir + " is full (" + freeBytes / 1024 + " KiB free)";
  }
}
