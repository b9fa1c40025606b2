package dev.gq.actors.runner;

import dev.gq.core.schedule.Request;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.end.DiskFull;
import dev.gq.core.end.EndSeen;
import dev.gq.core.job.Job;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.proc.JobProcesses;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.host.fs.DiskSpace;
import dev.gq.protocol.DiskRoom;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a {@link JobRunner} tells that its job has ended and what it reports: whether any process of
 * the job is left (in its session or group, or anywhere carrying its GQ_JOB_TAG), the exit record,
 * and, once none is left, a GPU reading taken after that; then the {@code Ended} message with what it
 * saw, a full disk among it (which may have kept the exit status or the log from being written).
 */
final class JobEnd {
  /** The runner's log. */
  private static final Logger LOG = LoggerFactory.getLogger("dev.gq.actors.runner.JobRunner");

  /**
   * What was found of a job's processes: whether any is left; if none, when every one was seen gone
   * ({@code endedNanos}), a GPU reading taken after that ({@code after}, null: none) and when it began,
   * and the job's exit record.
   */
  record Members(boolean anyLeft, long endedNanos, GpuObservation after, long afterNanos, Optional<ExitRecord> record) {}

  private JobEnd() {}

  /**
   * Whether any process of the job lives, the exit record (one read of the file), and, when none
   * lives and the job held GPUs, a GPU reading taken after {@code release} let the daemon's copies of
   * its leases go. Blocks.
   */
  static Members members(Job job, RunnerDeps deps, long pgid, long sid, Runnable release) {
    Path file = deps.settings().exitFile(job.id());
    Optional<String> content = deps.effects().exitContent(file);
    Optional<ExitRecord> record = content.flatMap(ExitRecord::parse);
    // The shim saw nothing the job started left as it ended, so nothing of its session or group
    // can be: only a process carrying the job's tag from elsewhere is left to look for.
    boolean any;
    if (content.map(ExitRecord::leftNothing).orElse(false)) {
      // one scan of every process's tag, shared with the runners whose jobs end at the same time
      any = job.tag() != null && deps.effects().procs().valuesCarried(JobEnvironment.TAG, JobEnvironment.SELF).contains(job.tag());
    } else {
      List<ProcInfo> all = deps.effects().procs().all();
      any = JobProcesses.anyLeft(pgid, sid, all, all.stream().map(ProcInfo::pid).toList(), JobEnvironment.SELF,
          pid -> carriesTag(job, deps, pid));
    }
    if (any) return new Members(true, 0, null, 0, record);
    // the shim may have written its record and ended between the read above and the scan
    if (record.isEmpty())
      record = deps.effects().exitContent(file).flatMap(ExitRecord::parse);
    long ended = System.nanoTime();
    // the daemon's copies go before the reading, which then sees the lease free unless something of
    // the job (a process that left its session and tag behind) still holds it
    release.run();
    if (job.gpus().isEmpty()) return new Members(false, ended, null, 0, record);
    // begun after the processes were seen gone, so strictly later, even on a clock that did not tick
    long taken = Math.max(System.nanoTime(), ended + 1);
    return new Members(false, ended, readGpus(job, deps), taken, record);
  }

  private static boolean carriesTag(Job job, RunnerDeps deps, long pid) {
    return job.tag() != null && deps.effects().procs().carries(pid, JobEnvironment.TAG, job.tag());
  }

  /** A GPU reading, or null when taking it failed (the Scheduler then asks the watcher for one). */
  private static GpuObservation readGpus(Job job, RunnerDeps deps) {
    try {
      return deps.effects().readGpus();
    } catch (RuntimeException e) {
      // off the actor's thread: its context must not be touched here
      LOG.warn("job {}: GPU reading after its end failed: {}", job.id(), e.toString());
      return null;
    }
  }

  /**
   * The report of an ended job, with what the runner saw of it: its exit record, the status its shim
   * exited with ({@code shimStatus}, null: unknown), whether it stopped it at its limit, and the note of
   * a full disk; gives up the reserve file when the disk is full, so the end can be recorded. The
   * Scheduler's decision words it.
   */
  static Request.Ended report(Job job, RunnerDeps deps, Members m, boolean timedOut, Integer shimStatus,
      Logger log) {
    Path exitFile = deps.settings().exitFile(job.id());
    DiskFull full = DiskFull.of(exitFile.getParent(), DiskRoom.freeWhenFull(exitFile.getParent()));
    // Room for the events that record this ending.
    if (full != null && DiskSpace.releaseReserve(exitFile.getParent().getParent()))
      log.warn("{}; gave up the reserve file to record job {}", full.text(), job.id());
    EndSeen seen = new EndSeen(m.record().orElse(null), shimStatus, full, timedOut, null, null);
    return new Request.Ended(job.id(), seen, m.endedNanos(), m.after(), m.afterNanos(), deps.settings().clock().instant());
  }

  /**
   * The report of a job whose processes could not be started ({@code problem}): a failed launch, or,
   * when a shell reports a status for the same failure ({@code exitCode}, 127: the command cannot be
   * run), the job's end as the shim would have recorded it.
   */
  static Request.Fact spawnFailed(long jobId, LaunchProblem problem, Integer exitCode) {
    return exitCode == null ? new Request.LaunchFailed(jobId, problem)
        : new Request.Ended(jobId, EndSeen.couldNotRun(exitCode, problem.text()), System.nanoTime(), null, 0);
  }

  /** Whether the process the runner launched (the shim) is gone: no process, a zombie, or another process under its pid. */
  static boolean leaderGone(RunnerDeps deps, ProcessIdentity identity) {
    Optional<ProcInfo> leader = deps.effects().procs().info(identity.pid());
    return leader.isEmpty() || leader.get().zombie() || !identity.matches(leader.get(), deps.effects().procs().bootId());
  }

  /** {@link #members} of the job of {@code identity}, looked for off the actor's thread. */
  static CompletableFuture<Members> membersLater(Job job, RunnerDeps deps, ProcessIdentity identity, Runnable release) {
    long pgid = identity.pgid(), sid = identity.sid();
    return CompletableFuture.supplyAsync(() -> members(job, deps, pgid, sid, release), deps.effects().blocking());
  }
}
