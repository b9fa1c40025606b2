package dev.gq.actors.reconciler;

import dev.gq.core.end.DiskFull;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.proc.JobProcesses;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.recovery.RecoveryFacts;
import dev.gq.protocol.DiskRoom;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/**
 * The blocking half of reconciliation: reads each given job's exit file, /proc, the GPUs and the
 * disk's free space, and returns what it found ({@link RecoveryFacts}), at start-up or in the periodic
 * pass; it concludes nothing: the Scheduler's decision applies the recovery rules to it. Called by the
 * {@link Reconciler} on the blocking executor, never on an actor's thread.
 */
public final class JobChecks {
  // The daemon never counts as a job's process, though one started from inside a job carries its tag.
  private static final long SELF = ProcessHandle.current().pid();

  private final ProcessTable procs;
  private final GpuProbe probe;
  private final LongFunction<Path> exitFile;
  private final Function<Path, Optional<ExitRecord>> exitReader;

  public JobChecks(ProcessTable procs, GpuProbe probe, LongFunction<Path> exitFile,
      Function<Path, Optional<ExitRecord>> exitReader) {
    this.procs = procs;
    this.probe = probe;
    this.exitFile = exitFile;
    this.exitReader = exitReader;
  }

  /**
   * What is found of every job given that is not waiting: at start-up, or in the periodic pass. The
   * Scheduler judges it by the recovery rules. Blocks.
   */
  public Map<Long, RecoveryFacts> facts(List<Job> live) {
    Map<Long, RecoveryFacts> found = new HashMap<>();
    List<Job> active = live.stream().filter(j -> j.state() != JobState.WAITING).toList();
    if (active.isEmpty()) return found;
    GpuReading reading = probe.read();
    // A GPU is "missing" only on a reading where every device answered: an NVML error proves nothing.
    boolean clean = reading.ok() && reading.devices().stream().allMatch(d -> d.error() == null);
    Set<String> present = clean ? reading.devices().stream().map(DeviceReading::uuid).collect(Collectors.toSet()) : null;
    List<ProcInfo> all = procs.all();
    String boot = procs.bootId();
    // a full disk may be why an exit status is missing: the shim could not write it
    Path run = exitFile.apply(active.get(0).id()).getParent();
    DiskFull full = DiskFull.of(run, DiskRoom.freeWhenFull(run));
    for (Job j : active) found.put(j.id(), facts(j, all, boot, present, full));
    return found;
  }

  private RecoveryFacts facts(Job j, List<ProcInfo> all, String boot, Set<String> present, DiskFull full) {
    ProcessIdentity id = j.identity();
    // A process with the leader's pid but other start ticks is a recycled pid, not the job.
    boolean alive = id != null && all.stream().anyMatch(p -> !p.zombie()
        && (p.pid() == id.pid() ? id.matches(p, boot) : p.pgid() == id.pgid() || p.sid() == id.sid()));
    // a process that left the session (setsid) but carries the job's tag is the job's too
    if (id != null && !alive && j.tag() != null)
      alive = JobProcesses.anyCarryingTag(all.stream().map(ProcInfo::pid).toList(), SELF,
          pid -> procs.carries(pid, "GQ_JOB_TAG", j.tag()));
    // an adopted job lives while its own process does: its group and session are not the job's
    if (j.adopted()) alive = all.stream().anyMatch(p -> !p.zombie() && id.matches(p, boot));
    Optional<ProcessIdentity> tagged = id != null ? Optional.empty() : tagged(j, all, boot);
    if (id == null) alive = tagged.isPresent();
    return new RecoveryFacts(boot, exitReader.apply(exitFile.apply(j.id())), alive, tagged, present, full);
  }

  /** The session leader among the processes carrying the job's tag (the shim), if any. */
  private Optional<ProcessIdentity> tagged(Job j, List<ProcInfo> all, String boot) {
    return all.stream()
        .filter(p -> !p.zombie() && p.pid() != SELF && j.tag().equals(procs.environ(p.pid(), "GQ_JOB_TAG").orElse(null)))
        .sorted((a, b) -> Boolean.compare(b.pid() == b.sid(), a.pid() == a.sid()))
        .findFirst()
        .map(p -> new ProcessIdentity(p.pid(), p.pgid(), p.sid(), p.startTicks(), boot));
  }
}
