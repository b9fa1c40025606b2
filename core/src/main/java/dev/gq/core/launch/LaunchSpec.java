package dev.gq.core.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Everything needed to start one job: argv as given, its directory, its whole environment, and its files. */
public record LaunchSpec(
    long jobId, List<String> argv, Path cwd, Map<String, String> env, Path logFile, Path exitFile) {

  public LaunchSpec {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
  }
}
