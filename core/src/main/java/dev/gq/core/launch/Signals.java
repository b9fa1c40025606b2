package dev.gq.core.launch;

import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessRef;
import java.util.Collection;

/**
 * Port that signals a job's process group, only after proving the group is the job's: the leader
 * is alive with the recorded start ticks on the recorded boot, or the leader is gone and its
 * group id is still used only by its members (a PID that leads a group cannot be reused while the
 * group lives); and the job's processes that left its session, each proved by the job's tag.
 */
public interface Signals {

  enum Outcome { SENT, GONE, NOT_OURS }

  /** Sends {@code signal} (e.g. 15, 9) to the group of {@code id}, re-verifying identity first. */
  Outcome signalGroup(ProcessIdentity id, int signal);

  /**
   * Sends {@code signal} to each process outside the session and group of {@code id} that carries
   * the job's GQ_JOB_TAG {@code tag} (a child that left with {@code setsid}), proving the tag on the
   * very process signalled; never the daemon. Returns how many were signalled.
   */
  int signalTagged(ProcessIdentity id, String tag, int signal);

  /**
   * Sends {@code signal} to the job's main process alone: the command the shim started, the child
   * of the shim {@code id} names that started with it (the shim's other children are processes of
   * the job whose parents ended, started later), proved by its parent, its session and the job's tag
   * {@code tag}, re-verified on the process itself just before the signal. A DataLoader worker or
   * any other process of the job gets nothing. GONE when the shim or its child has ended.
   */
  Outcome signalMain(ProcessIdentity id, String tag, int signal);

  /**
   * Sends {@code signal} to each process of {@code tree} (an adopted job's process and the
   * descendants seen of it), one by one, each proved by its pid and start ticks on the boot of
   * {@code root}; never to a process group or session, which an adopted process does not own. Returns
   * how many were signalled. Signals nothing unless overridden.
   */
  default int signalTree(ProcessIdentity root, Collection<ProcessRef> tree, int signal) {
    return 0;
  }
}
