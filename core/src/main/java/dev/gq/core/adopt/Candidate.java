package dev.gq.core.adopt;

import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessRef;
import java.time.Instant;
import java.util.List;

/**
 * What /proc said about a process the user asked gq to adopt, read just before the decision:
 * {@code info} (null when no such process is visible), the user owning it ({@code uid}, real and
 * effective alike; -1 when unreadable or they differ) and the caller's ({@code callerUid}), its
 * command line split on NUL, working directory, the regular file its stdout goes to (null when it is
 * none), when it really started, the boot id, the GQ_JOB_TAG it carries (null: none), its
 * {@code lineage} (it and its ancestors by parent pid, nearest first), the daemon's own lineage, and
 * what marks it as some gq's job besides its tag: the nearest of its lineage that is a gq job shim
 * ({@code shimPid}, 0: none) and the machine-wide GPU lease files it holds open ({@code leaseFiles}).
 */
public record Candidate(long pid, ProcInfo info, long uid, long callerUid, List<String> argv, String cwd,
    String stdoutPath, Instant startTime, String bootId, String tag, List<ProcessRef> lineage,
    List<ProcessRef> daemonLineage, long shimPid, List<String> leaseFiles) {

  public Candidate {
    argv = argv == null ? List.of() : List.copyOf(argv);
    lineage = lineage == null ? List.of() : List.copyOf(lineage);
    daemonLineage = daemonLineage == null ? List.of() : List.copyOf(daemonLineage);
    leaseFiles = leaseFiles == null ? List.of() : List.copyOf(leaseFiles);
  }

  /** A candidate under no gq shim and holding no lease file. */
  public Candidate(long pid, ProcInfo info, long uid, long callerUid, List<String> argv, String cwd,
      String stdoutPath, Instant startTime, String bootId, String tag, List<ProcessRef> lineage,
      List<ProcessRef> daemonLineage) {
    this(pid, info, uid, callerUid, argv, cwd, stdoutPath, startTime, bootId, tag, lineage, daemonLineage, 0, List.of());
  }

  /** The process as a GPU reading's facts would show it, for the ownership rule. */
  ProcessFacts facts() {
    return new ProcessFacts(pid, info.sid(), info.pgid(), tag, lineage);
  }

  /** The process by pid and start ticks. */
  ProcessRef ref() {
    return ProcessRef.of(info);
  }
}
