package dev.gq.core.alloc;

import dev.gq.core.proc.ProcessRef;
import java.util.List;

/**
 * What /proc says about one PID that a GPU lists: its session, process group and GQ_JOB_TAG (null
 * when it carries none or its environment is unreadable), and its {@code lineage}: the process and
 * its ancestors by parent pid, nearest first (read for a process carrying no tag, which may be an
 * adopted job's; empty otherwise). A PID /proc cannot show has no facts at all, and is then owned by
 * nobody.
 */
public record ProcessFacts(long pid, long sid, long pgid, String tag, List<ProcessRef> lineage) {

  public ProcessFacts {
    lineage = lineage == null ? List.of() : List.copyOf(lineage);
  }

  /** Facts without a lineage. */
  public ProcessFacts(long pid, long sid, long pgid, String tag) {
    this(pid, sid, pgid, tag, List.of());
  }
}
