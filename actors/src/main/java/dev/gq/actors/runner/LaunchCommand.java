package dev.gq.actors.runner;

import dev.gq.core.job.JobSpec;
import dev.gq.core.pyenv.Conda;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What a launch runs, beyond the stored command: the checkpoint an attempt that resumes a stopped
 * run takes ({@link ResumeLaunch}), and the conda environment {@code --conda} named, which conda's own
 * functions activate before the command ({@link Conda#wrap}). {@code problem} (with the exit code a
 * shell would give) when it cannot start: a checkpoint given that is gone, a conda environment that
 * is gone. Blocking (a directory listing at most); the launch runs it off the actor threads.
 */
record LaunchCommand(List<String> argv, Map<String, String> env, String note, String problem, Integer exitCode) {

  /** The command of {@code spec} with {@code env}, the job's whole environment (changed in place). */
  static LaunchCommand of(JobSpec spec, Map<String, String> env) {
    List<String> argv = spec.argv();
    String note = null;
    env.remove("GQ_RESUME_FROM");
    if (spec.resumes()) {
      ResumeLaunch r = ResumeLaunch.of(spec);
      if (r.missing() != null) return failed(r.missing(), null);
      argv = r.argv();
      if (r.from() != null) env.put("GQ_RESUME_FROM", r.from());
      note = r.note();
    }
    String prefix = env.get(Conda.PREFIX_VARIABLE), base = env.get(Conda.BASE_VARIABLE);
    if (prefix != null && base != null) {
      if (!Files.isDirectory(Path.of(prefix, "conda-meta")))
        return failed("the conda environment " + prefix + " is gone; create it again, then 'gq retry' the job", 127);
      argv = Conda.wrap(Path.of(base), Path.of(prefix), argv);
    }
    return new LaunchCommand(argv, env, note, null, null);
  }

  private static LaunchCommand failed(String why, Integer exitCode) {
    return new LaunchCommand(null, null, null, why, exitCode);
  }
}
