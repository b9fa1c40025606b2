package dev.gq.core.job;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a user asked for: the command exactly as given, the directory to run it in, the
 * environment to run it with (already filtered of secrets), how many whole GPUs, the labels, the
 * jobs it waits for ({@code after}), how many automatic retries a failure may use ({@code retries})
 * and the longest it may run ({@code timeLimit}, null for no limit), and its {@code priority}
 * (higher first among waiting jobs, {@link #MIN_PRIORITY} to {@link #MAX_PRIORITY}, 0 by default),
 * and the moment before which it may not start ({@code begin}, null: at once); how its command takes
 * a checkpoint to resume from ({@code resumeArg}, a template in which {@code {ckpt}} stands for the
 * path; null: only through {@code GQ_RESUME_FROM}), and, for an attempt that resumes a stopped run,
 * the checkpoint ({@code resumeFrom}: an absolute path, or {@link #NEWEST_CHECKPOINT} for the newest
 * complete one when the attempt starts; null: not a resume); which Slurm profile runs it
 * ({@code cluster}, null: this machine); what each of its GPUs must be ({@code gpuNeed}: memory and
 * type; null: any GPU). {@code name}, {@code group} and {@code key} may be null. Specs stored before {@code after}, {@code retries} and {@code timeLimit}
 * existed read back as no dependencies, no retries and no limit. The daemon's memory keeps a waiting
 * job's spec {@link #withoutCommand() without its command} (argv and environment): those stay in the
 * database until the job is launched.
 */
public record JobSpec(
    List<String> argv,
    String cwd,
    Map<String, String> env,
    int gpus,
    String name,
    String group,
    String key,
    List<Dependency> after,
    int retries,
    Duration timeLimit,
    int priority,
    Instant begin,
    String resumeArg,
    String resumeFrom,
    String cluster,
    GpuNeed gpuNeed) {

  public static final int MIN_PRIORITY = -100;
  public static final int MAX_PRIORITY = 100;
  /** {@link #resumeFrom} of a resume that takes the newest complete checkpoint when it starts (paths given are absolute). */
  public static final String NEWEST_CHECKPOINT = "newest";

  public JobSpec {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
    after = after == null ? List.of() : List.copyOf(after);
  }

  /** A spec that any GPU fits (as stored before jobs could ask for memory or a GPU type). */
  public JobSpec(List<String> argv, String cwd, Map<String, String> env, int gpus, String name, String group, String key,
      List<Dependency> after, int retries, Duration timeLimit, int priority, Instant begin, String resumeArg,
      String resumeFrom, String cluster) {
    this(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, null);
  }

  /** A spec for this machine (as stored before jobs could run on a cluster). */
  public JobSpec(List<String> argv, String cwd, Map<String, String> env, int gpus, String name, String group, String key,
      List<Dependency> after, int retries, Duration timeLimit, int priority, Instant begin, String resumeArg,
      String resumeFrom) {
    this(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg, resumeFrom, null);
  }

  /** A spec whose command takes no resume argument (as stored before jobs could be resumed). */
  public JobSpec(List<String> argv, String cwd, Map<String, String> env, int gpus, String name, String group, String key,
      List<Dependency> after, int retries, Duration timeLimit, int priority, Instant begin) {
    this(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, null, null, null);
  }

  /** A spec that may start at once. */
  public JobSpec(List<String> argv, String cwd, Map<String, String> env, int gpus, String name, String group, String key,
      List<Dependency> after, int retries, Duration timeLimit, int priority) {
    this(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, null);
  }

  /** A spec of priority 0 (as stored before priorities existed). */
  public JobSpec(List<String> argv, String cwd, Map<String, String> env, int gpus, String name, String group, String key,
      List<Dependency> after, int retries, Duration timeLimit) {
    this(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, 0, null);
  }

  /** A spec with no dependencies, no automatic retries and no time limit. */
  public JobSpec(List<String> argv, String cwd, Map<String, String> env, int gpus, String name, String group, String key) {
    this(argv, cwd, env, gpus, name, group, key, List.of(), 0, null);
  }

  /** Whether this spec carries its command; a spec kept in the daemon's memory does not. */
  public boolean hasCommand() {
    return !argv.isEmpty();
  }

  /** The spec without its argv and environment: what scheduling needs, kept in memory for a live job. */
  public JobSpec withoutCommand() {
    if (argv.isEmpty() && env.isEmpty()) return this;
    return new JobSpec(List.of(), cwd, Map.of(), gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec running {@code a}. */
  public JobSpec withArgv(List<String> a) {
    return new JobSpec(a, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec with the environment {@code e}. */
  public JobSpec withEnv(Map<String, String> e) {
    return new JobSpec(argv, cwd, e, gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /**
   * This spec completed from {@code source}, the spec of the job a stored submission refers to: an
   * empty argv stands for the source's argv, an empty environment for the source's environment.
   */
  public JobSpec completedFrom(JobSpec source) {
    return new JobSpec(argv.isEmpty() ? source.argv : argv, cwd, env.isEmpty() ? source.env : env, gpus, name, group,
        key, after, retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec waiting for {@code deps} instead. */
  public JobSpec withAfter(List<Dependency> deps) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, deps, retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec with {@code n} automatic retries left. */
  public JobSpec withRetries(int n) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, n, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec with this time limit (null for none). */
  public JobSpec withTimeLimit(Duration limit) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, limit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec with priority {@code p}. */
  public JobSpec withPriority(int p) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, p, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec asking for {@code n} GPUs. */
  public JobSpec withGpus(int n) {
    return new JobSpec(argv, cwd, env, n, name, group, key, after, retries, timeLimit, priority, begin, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec, not to start before {@code at} (null: at once). */
  public JobSpec withBegin(Instant at) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, at, resumeArg, resumeFrom, cluster, gpuNeed);
  }

  /** The same spec whose command takes its checkpoint as {@code template} says ({@code {ckpt}} stands for the path; null: none). */
  public JobSpec withResumeArg(String template) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, template,
        resumeFrom, cluster, gpuNeed);
  }

  /**
   * The same spec as the resume of a stopped run: from checkpoint {@code from} (an absolute path),
   * or, when it is null, from the newest complete checkpoint found when the attempt starts.
   */
  public JobSpec resuming(String from) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg,
        from == null ? NEWEST_CHECKPOINT : from, cluster, gpuNeed);
  }

  /** The same spec run by the Slurm cluster of profile {@code profile} (null: on this machine). */
  public JobSpec withCluster(String profile) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg,
        resumeFrom, profile, gpuNeed);
  }

  /** The same spec needing GPUs as {@code need} says (null: any GPU). */
  public JobSpec withGpuNeed(GpuNeed need) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, timeLimit, priority, begin, resumeArg,
        resumeFrom, cluster, need);
  }

  /** Whether a Slurm cluster runs this job rather than this machine. */
  public boolean onCluster() {
    return cluster != null;
  }

  /** Whether this job may share its GPUs with other shared jobs. */
  public boolean shares() {
    return gpuNeed != null && gpuNeed.share();
  }

  /** Whether this resume takes the newest complete checkpoint found when it starts (not a path given). */
  public boolean resumesFromNewest() {
    return NEWEST_CHECKPOINT.equals(resumeFrom);
  }

  /** Whether this attempt resumes a stopped run from a checkpoint. */
  public boolean resumes() {
    return resumeFrom != null;
  }
}
