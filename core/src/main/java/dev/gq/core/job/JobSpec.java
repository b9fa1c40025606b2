package dev.gq.core.job;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What a user asked for: the command exactly as given, the directory to run it in, the
 * environment to run it with (already filtered of secrets), how many whole GPUs, the labels, the
 * jobs it waits for ({@code after}), how many automatic retries a failure may use ({@code retries})
 * and the longest it may run ({@code timeLimit}, null for no limit). {@code name}, {@code group} and
 * {@code key} may be null. Specs stored before {@code after}, {@code retries} and {@code timeLimit}
 * existed read back as no dependencies, no retries and no limit.
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
    Duration timeLimit) {

  public JobSpec {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
    after = after == null ? List.of() : List.copyOf(after);
  }

  /** A spec with no dependencies, no automatic retries and no time limit. */
  public JobSpec(List<String> argv, String cwd, Map<String, String> env, int gpus, String name, String group, String key) {
    this(argv, cwd, env, gpus, name, group, key, List.of(), 0, null);
  }

  /** The same spec waiting for {@code deps} instead. */
  public JobSpec withAfter(List<Dependency> deps) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, deps, retries, timeLimit);
  }

  /** The same spec with {@code n} automatic retries left. */
  public JobSpec withRetries(int n) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, n, timeLimit);
  }

  /** The same spec with this time limit (null for none). */
  public JobSpec withTimeLimit(Duration limit) {
    return new JobSpec(argv, cwd, env, gpus, name, group, key, after, retries, limit);
  }
}
