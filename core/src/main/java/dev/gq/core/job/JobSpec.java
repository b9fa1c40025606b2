package dev.gq.core.job;

import java.util.List;
import java.util.Map;

/**
 * What a user asked for: the command exactly as given, the directory to run it in, the
 * environment to run it with (already filtered of secrets), how many whole GPUs, and the labels.
 * {@code name}, {@code group} and {@code key} may be null.
 */
public record JobSpec(
    List<String> argv,
    String cwd,
    Map<String, String> env,
    int gpus,
    String name,
    String group,
    String key) {

  public JobSpec {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
  }
}
