package dev.gq.actors.daemon;

import dev.gq.core.recovery.JobFileIds;
import dev.gq.core.recovery.JobIdRanges;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.LongStream;

/**
 * The job files already in the data directory when the daemon starts: how many files in
 * {@code logs/} and {@code run/} name a job, the highest job id among them, and the jobs that ran
 * (a log or an exit record). Start-up refuses an empty or missing database beside such files (their
 * history is gone: restore it, or move them aside), refuses a journal that does not know a job that
 * ran ({@link LostHistory}) unless told to accept the loss ({@code acceptLoss}), and moves the next
 * job id past them ({@link JobFileIds}). Reads names only, no contents.
 */
record JobFileScan(long files, long highestId, JobIdRanges ran, boolean acceptLoss) {

  /** Set to 1 to start although the journal lost jobs that ran (their ids are then skipped). */
  static final String ACCEPT_LOSS = "GQ_ACCEPT_LOST_HISTORY";

  static JobFileScan of(boolean acceptLoss, Path... dirs) throws IOException {
    long files = 0;
    long highest = 0;
    LongStream.Builder ran = LongStream.builder();
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) continue;
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
        for (Path e : entries) {
          String name = e.getFileName().toString();
          long id = JobFileIds.idOf(name).orElse(0);
          if (id == 0) continue;
          files++;
          highest = Math.max(highest, id);
          if (JobFileIds.provesARun(name)) ran.add(id);
        }
      }
    }
    return new JobFileScan(files, highest, JobIdRanges.of(ran.build().toArray()), acceptLoss);
  }

  /**
   * Why the daemon must not start a new history in {@code database}: it is missing or empty (with no
   * write-ahead log that could fill it) while job files exist; null when it may.
   */
  String refusal(Path database, Path logDir, Path exitDir) throws IOException {
    if (files == 0 || !empty(database)) return null;
    Path wal = database.resolveSibling(database.getFileName() + "-wal");
    if (Files.exists(wal) && Files.size(wal) > 0) return null;
    return "the database " + database + " is " + (Files.exists(database) ? "empty" : "missing") + " but " + logDir + " and "
        + exitDir + " hold " + files + " file(s) of earlier jobs (up to job " + highestId + "), so their history is lost;"
        + " restore the database from a backup, or to start a new history move the old files aside first (mv " + logDir
        + " " + logDir + ".old; mv " + exitDir + " " + exitDir + ".old)";
  }

  private static boolean empty(Path database) throws IOException {
    return !Files.exists(database) || Files.size(database) == 0;
  }
}
