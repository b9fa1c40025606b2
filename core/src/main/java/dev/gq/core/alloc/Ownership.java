package dev.gq.core.alloc;

import dev.gq.core.job.Job;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTree;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * The ownership rule: a process belongs to job J when /proc shows it and it is in J's session or
 * process group, or its environment carries J's GQ_JOB_TAG; for an adopted job, when it is the
 * adopted process itself (pid and start ticks) or descends from it by its parents, never by its
 * session or group. A PID /proc cannot show belongs to no job (fail closed).
 */
public final class Ownership {
  private Ownership() {}

  public static boolean owns(Job job, ProcessFacts f) {
    if (f == null) return false;
    if (job.tag() != null && job.tag().equals(f.tag())) return true;
    var id = job.identity();
    if (id != null && id.adopted())
      return ProcessTree.descends(f.lineage(), new ProcessRef(id.pid(), id.startTicks()));
    return id != null && (f.sid() == id.sid() || f.pgid() == id.pgid());
  }

  /** The live job owning {@code pid}, if any. */
  public static Optional<Job> ownerOf(long pid, Map<Long, ProcessFacts> facts, Collection<Job> live) {
    ProcessFacts f = facts.get(pid);
    if (f == null) return Optional.empty();
    for (Job j : live) if (owns(j, f)) return Optional.of(j);
    return Optional.empty();
  }
}
