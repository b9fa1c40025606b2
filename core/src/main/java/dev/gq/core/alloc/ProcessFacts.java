package dev.gq.core.alloc;

import dev.gq.core.proc.ProcessRef;
import java.util.List;
import java.util.Set;

/**
 * What /proc says about one PID that a GPU lists: its session, process group and GQ_JOB_TAG (null
 * when it carries none or its environment is unreadable), and its {@code lineage}: the process and
 * its ancestors by parent pid, nearest first (read for a process carrying no tag, which may be an
 * adopted job's; empty otherwise). A PID /proc cannot show has no facts at all, and is then owned by
 * nobody. {@code leases}: the UUIDs of the GPUs whose machine-wide lease files (in the lease
 * directory) it holds open, read for the processes of a GPU other gq instances share: a job's
 * processes inherit its lease files, so this tells another instance's shared job from an outside
 * process. {@code hiddenUid}: the process's uid when its open files could not be read (another
 * Unix user's process, to a daemon that is not root), else -1.
 */
public record ProcessFacts(long pid, long sid, long pgid, String tag, List<ProcessRef> lineage, Set<String> leases,
    long hiddenUid) {

  public ProcessFacts {
    lineage = lineage == null ? List.of() : List.copyOf(lineage);
    leases = leases == null ? Set.of() : Set.copyOf(leases);
  }

  public ProcessFacts(long pid, long sid, long pgid, String tag, List<ProcessRef> lineage) {
    this(pid, sid, pgid, tag, lineage, Set.of(), -1);
  }

  public ProcessFacts(long pid, long sid, long pgid, String tag, List<ProcessRef> lineage, Set<String> leases) {
    this(pid, sid, pgid, tag, lineage, leases, -1);
  }

  /** These facts with {@code uuids} as the lease files it holds open. */
  public ProcessFacts withLeases(Set<String> uuids) {
    return new ProcessFacts(pid, sid, pgid, tag, lineage, uuids, -1);
  }

  /** These facts for a process of user {@code uid} whose open files could not be read. */
  public ProcessFacts hidden(long uid) {
    return new ProcessFacts(pid, sid, pgid, tag, lineage, Set.of(), uid);
  }

  /** Facts without a lineage. */
  public ProcessFacts(long pid, long sid, long pgid, String tag) {
    this(pid, sid, pgid, tag, List.of());
  }
}
