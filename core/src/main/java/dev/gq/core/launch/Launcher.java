package dev.gq.core.launch;

/**
 * Port that starts a job: the shim in a new session, the job's argv exec'd by it (never through a
 * shell), stdout and stderr to the log file, the exit status written atomically to the exit file.
 * Blocks for a few milliseconds; runs off the actor threads.
 */
public interface Launcher {

  /**
   * Starts the job. Returns once the leader's identity is recorded.
   *
   * @throws LaunchException with a one-line, user-facing reason when nothing could be started
   */
  LaunchedProcess launch(LaunchSpec spec) throws LaunchException;
}
