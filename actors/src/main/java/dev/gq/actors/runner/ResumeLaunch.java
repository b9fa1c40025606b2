package dev.gq.actors.runner;

import dev.gq.core.job.JobSpec;
import dev.gq.core.resume.Checkpoints;
import dev.gq.core.resume.ResumeArgs;
import dev.gq.host.resume.CheckpointFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * How an attempt that resumes a stopped run starts: the checkpoint (the one given, or the newest
 * complete one under the job's checkpoint directory now), the command with it passed as the job
 * asked ({@link ResumeArgs}), and the line for the top of its log, which says when there is no
 * checkpoint and the run starts from scratch. A given checkpoint that is gone fails the launch
 * ({@code missing}). Blocking (one directory listing); the launch runs it off the actor threads.
 */
record ResumeLaunch(List<String> argv, String from, String note, String missing) {

  static ResumeLaunch of(JobSpec spec) {
    if (!spec.resumesFromNewest()) {
      Path given = Path.of(spec.resumeFrom());
      if (!Files.exists(given))
        return new ResumeLaunch(spec.argv(), null, null, "the checkpoint to resume from is gone: " + given);
      return resumed(spec, given.toString());
    }
    Optional<CheckpointFiles.Found> newest = CheckpointFiles.newest(spec.argv(), spec.cwd());
    if (newest.isEmpty()) {
      Path root = Checkpoints.root(spec.argv(), spec.cwd());
      return new ResumeLaunch(spec.argv(), null, "no complete checkpoint (checkpoint-N/" + Checkpoints.COMPLETE + ") under "
          + root + "; starting from scratch", null);
    }
    return resumed(spec, newest.get().dir().toString());
  }

  private static ResumeLaunch resumed(JobSpec spec, String ckpt) {
    List<String> argv = ResumeArgs.apply(spec.argv(), spec.resumeArg(), ckpt);
    String how = argv.equals(spec.argv()) ? " (in GQ_RESUME_FROM; the command is unchanged)" : "";
    return new ResumeLaunch(argv, ckpt, "resuming from " + ckpt + how, null);
  }
}
