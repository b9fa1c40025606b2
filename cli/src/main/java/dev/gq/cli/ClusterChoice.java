package dev.gq.cli;

import dev.gq.core.cluster.ClusterConfig;
import dev.gq.core.cluster.ClusterTarget;
import dev.gq.core.cluster.SlurmProfile;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.host.config.ConfigFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Where a submitted job runs: {@code --to}, else the configuration file's {@code to}, else this
 * machine. A cluster job is refused, in one line, when its profile is not configured, when Slurm's
 * sbatch cannot be found, or when it asks for what Slurm does not do for gq (a priority, a conda
 * environment, a resume argument: preempt and resume are for this machine's jobs; a GPU's memory,
 * several GPU types). One {@code --gpu-type} becomes Slurm's {@code --gres=gpu:TYPE:N}. The file is the
 * daemon's; a caller whose {@code GQ_CONFIG} names another one is refused unless the job goes
 * {@code --to local}, which no file changes.
 */
final class ClusterChoice {
  private ClusterChoice() {}

  /** {@code spec} as it runs where {@code opts} and the configuration say. */
  static JobSpec apply(JobSpec spec, SubmitOptions opts, Map<String, String> daemonEnv, Io caller) {
    return onto(spec, profile(opts, daemonEnv, caller), opts);
  }

  /** {@link #profile(SubmitOptions, Map)}, refused first when {@code caller}'s GQ_CONFIG names a file the daemon does not read. */
  static String profile(SubmitOptions opts, Map<String, String> daemonEnv, Io caller) {
    String other = "local".equals(opts.to) ? null : ConfigFile.callerMismatch(caller.env(), caller.cwd(), daemonEnv);
    if (other != null) throw new RefusedException(other);
    return profile(opts, daemonEnv);
  }

  /** {@code spec} sent to the cluster of {@code profile} (null: this machine), refused when it asks for what Slurm does not do for gq. */
  static JobSpec onto(JobSpec spec, String profile, SubmitOptions opts) {
    if (profile == null) return spec;
    if (spec.priority() != 0)
      throw new UsageException("--priority orders this machine's queue; Slurm orders a cluster's: leave it out with --to slurm (a profile's qos sets it)");
    if (opts.conda != null) throw new UsageException("--conda is for this machine's jobs; with --to slurm activate the environment in a script");
    if (spec.resumeArg() != null)
      throw new UsageException("--resume-arg is for this machine's jobs (gq preempt and resume); leave it out with --to slurm");
    String need = slurmNeed(spec.gpuNeed());
    if (need != null) throw new UsageException(need);
    return spec.withCluster(profile);
  }

  /**
   * Why Slurm cannot be asked for what each GPU must be, or null: it has no request for a GPU's own
   * memory ({@code --mem-per-gpu} is host memory), and {@code --gres=gpu:TYPE:N} names one type.
   */
  static String slurmNeed(GpuNeed need) {
    if (need == null) return null;
    if (need.share())
      return "--share and --per-gpu share this machine's GPUs: a Slurm cluster shares a GPU only through its own shard or MPS"
          + " gres, which its admins set up; leave them out with --to slurm (each job then gets whole GPUs)";
    if (need.vramMiB() > 0)
      return "--vram is for this machine's GPUs: Slurm has no request for a GPU's memory (--mem-per-gpu is host memory);"
          + " leave it out with --to slurm and name the card with --gpu-type, or a partition of big cards in the profile";
    if (need.types().size() > 1)
      return "Slurm takes one GPU type (--gres=gpu:TYPE:N); give one --gpu-type with --to slurm, not " + String.join(",", need.types());
    if (need.types().get(0).contains(" "))
      return "Slurm's GPU types are one word (--gres=gpu:TYPE:N), not '" + need.types().get(0) + "'; give one word with --to slurm";
    return null;
  }

  /** The Slurm profile jobs go to (null: this machine), checked: configured, and Slurm's sbatch at hand. */
  static String profile(SubmitOptions opts, Map<String, String> daemonEnv) {
    ClusterConfig config;
    try {
      config = ConfigFile.cluster(daemonEnv);
    } catch (IllegalArgumentException e) {
      if ("local".equals(opts.to)) return null; // a broken file does not stop this machine's jobs
      throw new RefusedException(e.getMessage());
    }
    String profile;
    try {
      profile = opts.to != null ? ClusterTarget.profile(opts.to) : config.defaultProfile();
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    if (profile == null) return null;
    SlurmProfile p = config.profile(profile);
    if (p == null)
      throw new RefusedException("no Slurm profile '" + profile + "' in " + ConfigFile.path(daemonEnv) + "; add a [slurm."
          + profile + "] table or use --to slurm");
    if (p.host() == null && !onPath("sbatch", daemonEnv))
      throw new RefusedException("Slurm's sbatch is not on the daemon's PATH; install Slurm's client here or set host (a login node) in [slurm." + profile + "]");
    return profile;
  }

  private static boolean onPath(String name, Map<String, String> env) {
    String path = env.getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(":"))
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) return true;
    return false;
  }
}
