package dev.gq.actors.socket;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the files of a job removed from the history: its log, its exit record and its progress file. A file is
 * deleted only when it is a plain file (not a symbolic link) directly inside gq's log or exit
 * directory (itself not a symbolic link), compared by real paths, and named after the job ({@code 12.log}, {@code 12.exit}),
 * so a tampered log path or a link planted in {@code logs/} never removes anything else. What is
 * kept is said in the daemon log.
 */
final class JobFiles {
  private static final Logger LOG = LoggerFactory.getLogger(JobFiles.class);
  private final Path logDir;
  private final Path exitDir;

  JobFiles(Path logDir, Path exitDir) {
    this.logDir = logDir;
    this.exitDir = exitDir;
  }

  /** Deletes job {@code id}'s log (at {@code logPath}, may be null), exit record and progress file. */
  void delete(long id, String logPath) {
    if (logPath != null) deleteInside(logDir, Path.of(logPath), id);
    deleteInside(exitDir, exitDir.resolve(id + ".exit"), id);
    deleteInside(exitDir, exitDir.resolve(id + ".progress"), id);
  }

  private static void deleteInside(Path dir, Path file, long id) {
    try {
      Path inside = file.getFileName() != null && file.getFileName().toString().startsWith(id + ".")
          ? inside(dir, file) : null;
      if (inside == null) {
        if (Files.exists(file, LinkOption.NOFOLLOW_LINKS))
          LOG.warn("kept {} of deleted job {}: it is not a plain file in {}", file, id, dir);
        return;
      }
      Files.deleteIfExists(inside);
    } catch (IOException e) {
      LOG.warn("cannot delete {} of deleted job {}: {}", file, id, e.toString());
    }
  }

  /**
   * The file to delete, resolved inside {@code dir}'s real path, or null when {@code file} is not
   * a plain file whose parent is that same directory.
   */
  static Path inside(Path dir, Path file) throws IOException {
    if (!file.isAbsolute() || file.getFileName() == null || file.getParent() == null) return null;
    // logs/ or run/ replaced by a link would lead the deletion out of the data directory
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) || !Files.isDirectory(file.getParent())) return null;
    Path realDir = dir.toRealPath();
    if (!file.getParent().toRealPath().equals(realDir)) return null;
    String name = file.getFileName().toString();
    if (name.equals(".") || name.equals("..")) return null;
    Path candidate = realDir.resolve(name);
    if (!Files.isRegularFile(candidate, LinkOption.NOFOLLOW_LINKS)) return null;
    return candidate;
  }
}
