package dev.gq.actors.daemon;

import dev.gq.core.health.DaemonHeap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notes the heap the queue needs ({@link DaemonHeap}) in {@code <data>/daemon-heap}, so that
 * bin/gq-daemon starts the next daemon with a heap that holds the queue it will replay (unless
 * GQ_DAEMON_HEAP says otherwise). One line, such as {@code 224m}, replaced whole; a hint only: the
 * launcher ignores a file it cannot read. Noted after every write that changes the queue (by the
 * Scheduler, once start-up is over and after each stored write), when the limit changes, so that a
 * daemon stopped right after a long batch leaves the limit for its queue, not for the one before
 * it (a restart then replayed 100,000 jobs into the 160 MiB of an empty queue, and the next batch
 * ran out of memory).
 */
final class HeapHint {
  private static final Logger LOG = LoggerFactory.getLogger(HeapHint.class);

  private final Path file;
  private String written;

  HeapHint(Path dataDir) {
    this.file = file(dataDir);
  }

  /** The file's place in the data directory {@code dataDir}. */
  static Path file(Path dataDir) {
    return dataDir.resolve("daemon-heap");
  }

  /** Notes the limit for {@code liveJobs} live jobs, when it is not the one noted last. */
  void note(long liveJobs) {
    String heap = DaemonHeap.flag(liveJobs);
    if (heap.equals(written)) return;
    try {
      Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(tmp, heap + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      written = heap;
    } catch (IOException e) {
      LOG.debug("cannot note the heap the queue needs: {}", e.toString());
    }
  }
}
