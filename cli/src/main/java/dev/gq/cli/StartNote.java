package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.util.Comparator;
import java.util.stream.Collectors;

/**
 * What a command that follows one job ({@code gq logs -f JOB}, {@code gq wait JOB}) tells a person
 * at a terminal while the job has not started: once, what it waits for ("job 12 is WAITING: needs
 * 2 GPUs, 0 free (...); the log starts when it runs"), and once, when it starts. It writes to
 * stderr and only when stderr is a terminal, so a script reading the output sees only the job's.
 * One per command run; fed every state of the job it polls.
 */
final class StartNote {
  private final Invocation inv;
  private final String then;
  private long waitingId = -1;
  private boolean started;

  /** {@code then}: what happens once the job runs, ending the waiting line ("the log starts when it runs"). */
  StartNote(Invocation inv, String then) {
    this.inv = inv;
    this.then = then;
  }

  /** Says what {@code job} waits for the first time it is seen WAITING, and that it started, once, after that. */
  void see(Job job) throws ApiException {
    if (!inv.io().stderrTty()) return;
    if (job.state() == JobState.WAITING) {
      if (waitingId == job.id()) return;
      waitingId = job.id();
      started = false;
      WaitReason reason = inv.api().waitReasons().get(job.id());
      // the word gq ps shows: HELD for a waiting job of a held group
      String shown = job.spec().group() == null ? "WAITING" : JobTable.state(job, inv.api().holds().keySet());
      inv.err().println("gq: job " + job.id() + " is " + shown + (reason == null ? "" : ": " + reason.text()) + "; " + then);
      inv.err().flush();
    } else if (waitingId == job.id() && !started && (job.startTime() != null || !job.state().terminal())) {
      started = true;
      inv.err().println("gq: job " + job.id() + " started" + onGpus(job));
      inv.err().flush();
    }
  }

  private static String onGpus(Job job) {
    if (job.gpus().isEmpty()) return "";
    String indices = job.gpus().stream().sorted(Comparator.comparingInt(GpuSlot::index))
        .map(s -> String.valueOf(s.index())).collect(Collectors.joining(","));
    return job.gpus().size() == 1 ? " on GPU " + indices : " on GPUs " + indices;
  }
}
