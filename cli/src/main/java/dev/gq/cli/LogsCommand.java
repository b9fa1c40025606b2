package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq logs [-f] [-n N] [JOB]}: prints a job's log (its stdout and stderr), read straight from the
 * file, since the daemon runs as the same user, byte for byte as the job wrote it; without JOB, the
 * newest job's. {@code -n} starts at the last N lines. With {@code -f} it keeps printing new output,
 * checking the file every {@value #FILE_POLL_MS} ms and the job every {@value #JOB_POLL_MS} ms,
 * and stops once the job has ended and its last bytes are out, or when the caller goes away. On a
 * terminal, stderr says what a job that has not started waits for ({@link StartNote}).
 */
@Command(name = "logs", aliases = "log", description = "Print a job's output (default: the newest job's); -f keeps following it until the job ends.")
final class LogsCommand implements Callable<Integer> {
  // a poll is one size check of an open file; 50 ms keeps the shown line within ~25 ms of the written one
  static final long FILE_POLL_MS = 50;
  static final long JOB_POLL_MS = 250;
  private final Invocation inv;

  @Option(names = {"-f", "--follow"}, description = "Keep printing new output until the job ends (Ctrl-C stops, the job keeps running).")
  boolean follow;

  @Option(names = {"-n", "--lines"}, paramLabel = "N", description = "Only the last N lines (with -f: then the new ones).")
  Long lines;

  @Parameters(paramLabel = "JOB", arity = "0..1", description = "The job id (default: the newest job).")
  String jobId;

  LogsCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    if (lines != null && lines < 0) throw new UsageException("-n/--lines must be 0 or more, not " + lines);
    Job job = jobId != null ? ShowCommand.find(inv.api(), JobRanges.id(jobId)) : newest();
    try {
      return follow ? follow(job) : printAll(job);
    } catch (IOException e) {
      throw new RefusedException("cannot read " + job.logPath() + ": " + e.getMessage());
    }
  }

  /** The job with the highest id, named on a terminal's stderr; refused when there is none. */
  private Job newest() throws ApiException {
    List<Job> jobs = inv.api().jobs(new JobQuery(List.of(), Set.of(), null, 1));
    if (jobs.isEmpty()) throw new RefusedException("there are no jobs yet; queue one with 'gq submit SCRIPT' or 'gq run COMMAND'");
    Job job = jobs.get(0);
    if (inv.io().stderrTty()) inv.err().println("gq: job " + job.id() + " (" + job.displayName() + ", " + job.state() + "), the newest");
    return job;
  }

  private int printAll(Job job) throws IOException, ApiException {
    if (job.logPath() == null) return noLog(job);
    try (LogFollower tail = new LogFollower(Path.of(job.logPath()), inv.api())) {
      if (!tail.exists()) return noLog(job);
      OutputStream out = inv.io().rawOut();
      if (lines != null) tail.lastLines(lines);
      tail.finish(out);
      out.flush();
    }
    return ExitCode.OK;
  }

  /** A job that never started has no log yet: nothing to print. One that ran should have one. */
  private int noLog(Job job) throws ApiException {
    if (job.logPath() == null && job.adopted())
      throw new RefusedException("job " + job.id() + " was adopted and its stdout was not a regular file, so gq has no log of it;"
          + " its output goes where it went before it was adopted");
    if (job.startTime() == null) {
      new StartNote(inv, "it has no log yet").see(job);
      return ExitCode.OK;
    }
    throw new RefusedException("job " + job.id() + " has no log at " + job.logPath() + "; it may have been deleted");
  }

  private int follow(Job job) throws IOException, ApiException {
    OutputStream out = inv.io().rawOut();
    LogFollower tail = job.logPath() == null ? null : new LogFollower(Path.of(job.logPath()), inv.api());
    if (tail != null && lines != null) tail.lastLines(lines);
    StartNote note = new StartNote(inv, "the log starts when it runs");
    long nextJobCheck = System.nanoTime();
    boolean waiting = false;
    try {
      while (!inv.io().closed()) {
        // a job seen waiting whose log appears is checked first, so that the note that it started comes before its output
        if (System.nanoTime() - nextJobCheck >= 0 || (waiting && tail != null && tail.exists())) {
          Job now = current(job.id());
          note.see(now);
          waiting = now.state() == JobState.WAITING;
          if (tail == null && now.logPath() != null) tail = new LogFollower(Path.of(now.logPath()), inv.api());
          if (now.state().terminal()) return drain(tail, out);
          nextJobCheck = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(JOB_POLL_MS);
        }
        if (tail != null && tail.pump(out)) out.flush();
        inv.io().beginStream();
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

  private static int drain(LogFollower tail, OutputStream out) throws IOException, ApiException {
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
