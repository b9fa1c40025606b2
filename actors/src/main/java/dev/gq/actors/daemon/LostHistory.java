package dev.gq.actors.daemon;

import dev.gq.core.recovery.JobIdRanges;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;

/**
 * A journal that does not know jobs that ran here: their logs or exit records are in the data
 * directory with ids the journal never issued, so it lost its last writes (a {@code gq.db-wal}
 * deleted or damaged after a crash, or a {@code gq.db} restored from an older copy). Start-up stops
 * with one line that says what was found (and which of those jobs still run, by their shims, which
 * name their exit record on their command line) and how to go on, instead of running on without
 * them; {@value JobFileScan#ACCEPT_LOSS}=1 accepts the loss.
 */
final class LostHistory {
  /** The start was refused; the message is the line to show. */
  static final class Refused extends RuntimeException {
    Refused(String line) {
      super(line, null, false, false);
    }
  }

  private LostHistory() {}

  /** The line for the jobs among {@code ran} at or past {@code nextId}, the journal's next id. */
  static String refusal(Path database, Path logDir, Path exitDir, JobIdRanges ran, long nextId, Map<Long, Long> running) {
    long count = ran.countFrom(nextId);
    String which = count == 1 ? "job " + ran.firstFrom(nextId) : count + " jobs (" + ran.firstFrom(nextId) + " to " + ran.last() + ")";
    String known = nextId <= 1 ? "it knows no job" : "its last job is " + (nextId - 1);
    StringBuilder sb = new StringBuilder("the journal ").append(database).append(" lost its last writes: ").append(logDir)
        .append(" and ").append(exitDir).append(" hold the files of ").append(which).append(" but ").append(known);
    if (!running.isEmpty()) {
      sb.append(", and ").append(running.size() == 1 ? "one of them still runs" : running.size() + " of them still run")
          .append(" (shim pid");
      running.forEach((id, pid) -> sb.append(' ').append(pid).append(" for job ").append(id).append(','));
      sb.setLength(sb.length() - 1);
      sb.append(')');
    }
    sb.append("; restore ").append(database.getFileName()).append(" and its -wal file from a backup if you have one, or accept the loss"
        + " and start with ").append(JobFileScan.ACCEPT_LOSS).append("=1 gq daemon start (their files are kept and their ids"
        + " not issued again");
    // not 'gq adopt': it refuses any gq job's process, these shims and their jobs among them
    if (!running.isEmpty()) sb.append("; gq then does not watch the running ones: let them end, or stop each with"
        + " 'kill -- -PID' (the shim leads its job's process group)");
    return sb.append(')').toString();
  }

  /**
   * The shims still running jobs that {@code lost} accepts: job id to shim pid, found by the exit
   * record each names on its command line. Processes gq cannot read are passed over.
   */
  static Map<Long, Long> running(Path proc, Path exitDir, LongPredicate lost) {
    Map<Long, Long> found = new TreeMap<>();
    try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc, p -> p.getFileName().toString().chars().allMatch(Character::isDigit))) {
      for (Path p : pids) {
        long id = jobOf(p.resolve("cmdline"), exitDir.toAbsolutePath().toString() + "/");
        if (id > 0 && lost.test(id)) found.putIfAbsent(id, Long.parseLong(p.getFileName().toString()));
      }
    } catch (IOException | RuntimeException e) {
      // what was found so far is said
    }
    return found;
  }

  /** The job whose exit record {@code cmdline} names under {@code exitPrefix}, or 0. */
  private static long jobOf(Path cmdline, String exitPrefix) {
    String args;
    try {
      args = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
    for (String a : args.split("\0")) {
      if (!a.startsWith(exitPrefix) || !a.endsWith(".exit")) continue;
      String digits = a.substring(exitPrefix.length(), a.length() - ".exit".length());
      if (!digits.isEmpty() && digits.length() < 19 && digits.chars().allMatch(Character::isDigit)) return Long.parseLong(digits);
    }
    return 0;
  }
}
