package dev.gq.core.launch;

import java.util.Objects;

/**
 * Why a job's processes were not started, as a runner or the Slurm bridge found it: a {@link Cause}
 * and its {@code detail} (the error, the launcher's or the lease's own words, the Slurm profile, the
 * first line sbatch printed; empty when the cause says it all). Carried by the report of a failed or
 * deferred launch and worded here only ({@link #text}), into the stored event's reason.
 */
public record LaunchProblem(Cause cause, String detail) {
  /** The kinds of failed start. */
  public enum Cause {
    /** The job's command could not be read from the database; {@code detail}: the error. */
    COMMAND_UNREADABLE,
    /** The command could not be prepared or launched; {@code detail}: the launcher's words. */
    LAUNCH_REFUSED,
    /** The daemon stopped before the job could start. */
    DAEMON_STOPPED,
    /** The runner's start failed unexpectedly; {@code detail}: the error. */
    RUNNER_FAILED,
    /** Another gq took a GPU's machine-wide lease after the reservation; {@code detail}: the lease's words. */
    LEASE_TAKEN,
    /** The job's Slurm profile is no longer configured; {@code detail}: the profile. */
    NO_SLURM_PROFILE,
    /** sbatch refused the job; {@code detail}: the first line it printed. */
    SBATCH_REFUSED
  }

  public LaunchProblem {
    Objects.requireNonNull(cause, "cause");
    detail = detail == null ? "" : detail;
  }

  /** "cannot read the job's command from the database: ...", "sbatch refused it: ...". */
  public String text() {
    return switch (cause) {
      case COMMAND_UNREADABLE -> "cannot read the job's command from the database: " + detail;
      case LAUNCH_REFUSED, LEASE_TAKEN -> detail;
      case DAEMON_STOPPED -> "the daemon stopped before the job could start";
      case RUNNER_FAILED -> "cannot start the job: " + detail;
      case NO_SLURM_PROFILE -> "no Slurm profile '" + detail + "' in the configuration file any more";
      case SBATCH_REFUSED -> "sbatch refused it: " + detail;
    };
  }
}
