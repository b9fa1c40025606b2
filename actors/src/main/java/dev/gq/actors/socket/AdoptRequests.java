package dev.gq.actors.socket;

import dev.gq.api.ApiException;
import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.adopt.Adoption;
import dev.gq.core.adopt.Candidate;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.proc.ProcessTree;
import dev.gq.core.schedule.Request;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code gq adopt}: reads what /proc says about the process ({@link Candidate}) and asks the
 * Scheduler, whose decision ({@link Adoption}) is pure. The caller's uid is this daemon's: the
 * socket serves only peers whose credentials (SO_PEERCRED) name the daemon's own user. A process
 * whose start ticks change while it is read was replaced by another with its pid, and counts as gone.
 */
final class AdoptRequests {
  private static final long SELF = ProcessHandle.current().pid();
  /** The command name of gq's job shim, as /proc/PID/stat shows it. */
  private static final String SHIM = "gq-shim";

  private final SchedulerAsks asks;
  private final ProcessTable procs;
  private final long callerUid;
  private final Path leaseDir;

  /** {@code leaseDir}: where every gq on the machine keeps its GPU leases (null: none checked). */
  AdoptRequests(SchedulerAsks asks, ProcessTable procs, long callerUid, Path leaseDir) {
    this.asks = asks;
    this.procs = procs;
    this.callerUid = callerUid;
    this.leaseDir = leaseDir;
  }

  AdoptOutcome adopt(long pid, String name, String group, String key) throws ApiException {
    return asks.ask(new Request.Adopt(new Adoption.AdoptAsk(read(pid), name, group, key)));
  }

  /** The candidate as /proc shows it now. Blocks (a few small reads). */
  Candidate read(long pid) {
    Optional<ProcInfo> info = procs.info(pid);
    ProcInfo p = info.orElse(null);
    List<String> argv = procs.cmdline(pid);
    String cwd = procs.cwd(pid).orElse(null);
    String stdout = procs.stdoutFile(pid).orElse(null);
    long uid = procs.uid(pid);
    String tag = procs.environ(pid, "GQ_JOB_TAG").orElse(null);
    List<ProcessRef> lineage = p == null ? List.of() : ProcessTree.lineage(p, procs::info);
    long shim = shim(lineage);
    List<String> leases = leaseFiles(pid);
    // read again last: what was read in between belongs to this very process only if it is still there
    Optional<ProcInfo> again = procs.info(pid);
    if (p != null && (again.isEmpty() || again.get().startTicks() != p.startTicks())) p = null;
    List<ProcessRef> daemon = procs.info(SELF).map(d -> ProcessTree.lineage(d, procs::info)).orElse(List.of());
    return new Candidate(pid, p, uid, callerUid, argv, cwd, stdout, p == null ? null : procs.startTime(p).orElse(null),
        procs.bootId(), tag, lineage, daemon, shim, leases);
  }

  /** The nearest process of {@code lineage} (it first) that is a gq job shim, still the same process; 0 when none. */
  private long shim(List<ProcessRef> lineage) {
    for (ProcessRef r : lineage) {
      Optional<ProcInfo> i = procs.info(r.pid());
      if (i.isPresent() && i.get().startTicks() == r.startTicks() && SHIM.equals(i.get().comm())) return r.pid();
    }
    return 0;
  }

  /** The GPU lease files of the lease directory that {@code pid} holds open (a job's processes inherit them). */
  private List<String> leaseFiles(long pid) {
    if (leaseDir == null) return List.of();
    Path dir;
    try {
      dir = leaseDir.toRealPath();
    } catch (IOException e) {
      dir = leaseDir.toAbsolutePath();
    }
    Path in = dir;
    return procs.openFiles(pid).stream()
        .filter(f -> f.endsWith(".lease") && in.equals(Path.of(f).getParent()))
        .toList();
  }
}
