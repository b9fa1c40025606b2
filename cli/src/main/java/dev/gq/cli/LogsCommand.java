package dev.gq.cli;

import dev.gq.core.job.Job;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq logs [-f] JOB}: prints a job's log (its stdout and stderr), read straight from the
 * file, since the daemon runs as the same user, byte for byte as the job wrote it. With {@code -f} it keeps printing new output,
 * checking the file every {@value #FILE_POLL_MS} ms and the job every {@value #JOB_POLL_MS} ms,
 * and stops once the job has ended and its last bytes are out, or when the caller goes away.
 */
@Command(name = "logs", description = "Print a job's output; -f keeps following it until the job ends.")
final class LogsCommand implements Callable<Integer> {
  // a poll is one size check of an open file; 50 ms keeps the shown line within ~25 ms of the written one
  static final long FILE_POLL_MS = 50;
  static final long JOB_POLL_MS = 250;
  private final Invocation inv;

  @Option(names = {"-f", "--follow"}, description = "Keep printing new output until the job ends (Ctrl-C stops, the job keeps running).")
  boolean follow;

  @Parameters(paramLabel = "JOB", description = "The job id.")
  String jobId;

  LogsCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    Job job = ShowCommand.find(inv.api(), JobRanges.id(jobId));
    try {
      return follow ? follow(job) : printAll(job);
    } catch (IOException e) {
      throw new RefusedException("cannot read " + job.logPath() + ": " + e.getMessage());
    }
  }

  private int printAll(Job job) throws IOException, ApiException {
    if (job.logPath() == null) return noLog(job);
    try (LogTail tail = new LogTail(Path.of(job.logPath()), inv.api())) {
      if (!tail.exists()) return noLog(job);
      OutputStream out = inv.io().rawOut();
      tail.finish(out);
      out.flush();
    }
    return ExitCode.OK;
  }

  /** A job that never started has no log yet: nothing to print. One that ran should have one. */
  private static int noLog(Job job) {
    if (job.startTime() == null) return ExitCode.OK;
    throw new RefusedException("job " + job.id() + " has no log at " + job.logPath() + "; it may have been deleted");
  }

  private int follow(Job job) throws IOException, ApiException {
    OutputStream out = inv.io().rawOut();
    LogTail tail = job.logPath() == null ? null : new LogTail(Path.of(job.logPath()), inv.api());
    long nextJobCheck = System.nanoTime();
    try {
      while (!inv.io().closed()) {
        if (tail != null && tail.pump(out)) out.flush();
        if (System.nanoTime() - nextJobCheck >= 0) {
          Job now = current(job.id());
          if (tail == null && now.logPath() != null) tail = new LogTail(Path.of(now.logPath()), inv.api());
          if (now.state().terminal()) return drain(tail, out);
          nextJobCheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOB_POLL_MS);
        }
        if (!pause()) break;
      }
      return ExitCode.OK;
    } finally {
      if (tail != null) tail.close();
    }
  }

  private Job current(long id) throws ApiException {
    Optional<Job> now = inv.api().job(id);
    return now.orElseThrow(() -> new RefusedException("job " + id + " was deleted while its log was followed"));
  }

  private static int drain(LogTail tail, OutputStream out) throws IOException, ApiException {
    if (tail != null) tail.finish(out);
    out.flush();
    return ExitCode.OK;
  }

  /** Waits for the next poll; false when the thread is told to stop (the daemon shuts down). */
  private static boolean pause() {
    try {
      Thread.sleep(FILE_POLL_MS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
