package dev.gq.core.launch;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Everything needed to start one job: argv as given, its directory, its whole environment, its
 * files, the open descriptors of its GPUs' machine-wide leases, which the job inherits (as
 * descriptors 3, 4, ...) and holds until its last process ends, and a line for the top of this
 * attempt's log ({@code note}, null: none), such as the checkpoint it resumes from.
 */
public record LaunchSpec(
    long jobId, List<String> argv, Path cwd, Map<String, String> env, Path logFile, Path exitFile, List<Integer> leaseFds,
    String note) {

  public LaunchSpec {
    argv = List.copyOf(argv);
    env = Map.copyOf(env);
    leaseFds = List.copyOf(leaseFds);
  }

  /** A launch with no note for the log. */
  public LaunchSpec(long jobId, List<String> argv, Path cwd, Map<String, String> env, Path logFile, Path exitFile,
      List<Integer> leaseFds) {
    this(jobId, argv, cwd, env, logFile, exitFile, leaseFds, null);
  }

  /** A job that holds no leases. */
  public LaunchSpec(long jobId, List<String> argv, Path cwd, Map<String, String> env, Path logFile, Path exitFile) {
    this(jobId, argv, cwd, env, logFile, exitFile, List.of());
  }
}
