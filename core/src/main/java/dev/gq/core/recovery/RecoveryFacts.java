package dev.gq.core.recovery;

import dev.gq.core.end.DiskFull;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.proc.ProcessIdentity;
import java.util.Optional;
import java.util.Set;

/**
 * What the Reconciler found about one live job: the current boot id, the job's exit record if the shim
 * wrote one, whether its leader (same pid, start ticks and boot) or any process of its session or
 * group is alive, the leader of processes carrying its GQ_JOB_TAG (for a job reserved but never
 * recorded as launched), the GPU UUIDs present now (null when the GPU reading failed, so nothing may
 * be concluded about missing GPUs), and the disk holding its exit record when it was full, with its
 * free bytes (null: it had room), which explains an exit status that is missing. Observed, not judged:
 * {@link Recovery} judges it.
 */
public record RecoveryFacts(
    String bootId,
    Optional<ExitRecord> exit,
    boolean alive,
    Optional<ProcessIdentity> tagged,
    Set<String> presentGpus,
    DiskFull diskFull) {

  /** Facts found with room on the disk. */
  public RecoveryFacts(String bootId, Optional<ExitRecord> exit, boolean alive, Optional<ProcessIdentity> tagged,
      Set<String> presentGpus) {
    this(bootId, exit, alive, tagged, presentGpus, null);
  }
}
