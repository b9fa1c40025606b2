package dev.gq.core.launch;

import dev.gq.core.proc.ProcessIdentity;

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
   * Sends {@code signal} to each process of {@code tree} (an adopted job's process and the
   * descendants seen of it), one by one, each proved by its pid and start ticks on the boot of
   * {@code root}; never to a process group or session, which an adopted process does not own. Returns
   * how many were signalled. Signals nothing unless overridden.
   */
  default int signalTree(ProcessIdentity root, java.util.Collection<dev.gq.core.proc.ProcessRef> tree, int signal) {
    return 0;
  }
}
