package dev.gq.cli;

import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.PrintableText;
import dev.gq.core.ledger.ControlText;
import java.util.List;

/**
 * The words of a stored control event (a GPU drained or given back, jobs held or released) as
 * {@code gq top} and {@code gq events} show it: the GPU's index looked up among the GPUs now, and
 * for a drain still in force the jobs still running there. Null for any other event. Pure.
 */
final class ControlEvents {
  private ControlEvents() {}

  static String text(StoredEvent e, List<GpuStatus> gpus, List<Job> jobs) {
    return switch (e.type()) {
      case "GpuDrained" -> ControlText.drained(index(e, gpus), uuid(e), PrintableText.escape(String.valueOf(e.fields().get("reason"))),
          stillThere(uuid(e), gpus, jobs));
      case "GpuResumed" -> ControlText.resumed(index(e, gpus), uuid(e));
      case "JobsHeld" -> e.fields().get("job_ids") instanceof List<?> ids
          ? ControlText.held(ids.stream().map(i -> ((Number) i).longValue()).toList(), Boolean.TRUE.equals(e.fields().get("held")))
          : null;
      default -> null;
    };
  }

  /** The index of the GPU an event names, among {@code gpus}; null when none has its UUID. */
  static Integer index(StoredEvent e, List<GpuStatus> gpus) {
    String uuid = uuid(e);
    return gpus.stream().filter(g -> g.uuid().equals(uuid)).map(GpuStatus::index).findFirst().orElse(null);
  }

  private static String uuid(StoredEvent e) {
    return PrintableText.escape(String.valueOf(e.fields().get("uuid")));
  }

  /** The live jobs on GPU {@code uuid} while it is drained; none once it takes new jobs again. */
  private static List<Long> stillThere(String uuid, List<GpuStatus> gpus, List<Job> jobs) {
    boolean drained = gpus.stream().anyMatch(g -> g.uuid().equals(uuid) && g.state() == GpuState.DRAINED);
    if (!drained) return List.of();
    return jobs.stream().filter(j -> j.state().holdsGpus() && j.gpus().stream().anyMatch(s -> s.uuid().equals(uuid)))
        .map(Job::id).toList();
  }
}
