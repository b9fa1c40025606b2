package dev.gq.core.cluster;

import java.util.List;

/**
 * How jobs sent to one Slurm cluster are submitted: the partition, account and QOS (null: Slurm's
 * defaults), extra sbatch options passed as they are ({@code sbatch}), the ssh host of a login node
 * that runs the Slurm commands (null: they run here), and the signal Slurm sends a job's batch
 * shell before its time limit, {@code SIG@SECONDS} (gq forwards it to the command).
 */
public record SlurmProfile(String name, String partition, String account, String qos, List<String> sbatch, String host,
    String warning) {
  /** The signal sent before a time limit when a profile names none, as submitit does. */
  public static final String DEFAULT_WARNING = "USR2@90";

  public SlurmProfile {
    sbatch = sbatch == null ? List.of() : List.copyOf(sbatch);
    warning = warning == null ? DEFAULT_WARNING : warning;
  }

  /** A profile with Slurm's own defaults. */
  public static SlurmProfile defaults(String name) {
    return new SlurmProfile(name, null, null, null, List.of(), null, null);
  }
}
