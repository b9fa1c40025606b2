package dev.gq.core.launch;

import dev.gq.core.proc.ProcessIdentity;

/**
 * Port that signals a job's process group, only after proving the group is the job's: the leader
 * is alive with the recorded start ticks on the recorded boot, or the leader is gone and its
 * group id is still used only by its members (a PID that leads a group cannot be reused while the
 * group lives).
 */
public interface Signals {

  enum Outcome { SENT, GONE, NOT_OURS }

  /** Sends {@code signal} (e.g. 15, 9) to the group of {@code id}, re-verifying identity first. */
  Outcome signalGroup(ProcessIdentity id, int signal);
}
