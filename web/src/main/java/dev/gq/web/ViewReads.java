package dev.gq.web;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@link MachineView} from the daemon through the calls the commands make, nothing of its
 * own: the groups, counted over the whole history, only every few looks, and the jobs only when the
 * journal has moved or a job runs (whose progress moves without an event). One per page server.
 */
final class ViewReads {
  /** Ended jobs shown under the live ones, as gq top shows them. */
  static final int RECENT = 30;
  private static final int GROUPS_EVERY = 5;

  private final GqApi api;
  private final String user;
  private List<GroupSummary> groups = List.of();
  private List<Job> jobs = List.of();
  private long seenSeq = -1;
  private int looks;

  ViewReads(GqApi api, String user) {
    this.api = api;
    this.user = user;
  }

  /**
   * What the lab's page shows now: the GPUs, the users of the processes on them, and everyone's line
   * of {@code gq who}; nothing of any job (no names, commands, paths or logs is ever read).
   */
  MachineView readPublic() throws ApiException {
    GqApi.GpuReport gpus = api.gpus();
    return new MachineView(api.now(), ZoneId.systemDefault(), user, gpus, api.processes(pids(gpus)), api.who(), List.of(),
        Map.of(), Map.of(), List.of(), false);
  }

  private static Set<Long> pids(GqApi.GpuReport gpus) {
    Set<Long> pids = new LinkedHashSet<>();
    for (GpuStatus g : gpus.gpus()) for (GpuProcess p : g.processes()) pids.add(p.pid());
    return pids;
  }

  /** What the page shows now. */
  synchronized MachineView read() throws ApiException {
    GqApi.GpuReport gpus = api.gpus();
    Set<Long> pids = pids(gpus);
    long seq = api.eventsTail(null, null, 0);
    boolean running = jobs.stream().anyMatch(j -> j.state() == JobState.RUNNING);
    if (seq != seenSeq || running || looks % GROUPS_EVERY == 0) {
      List<Job> all = new ArrayList<>(api.jobs(new JobQuery(List.of(), JobState.live(), null, 0)));
      all.addAll(api.jobs(new JobQuery(List.of(), JobState.ended(), null, RECENT)));
      jobs = all;
      seenSeq = seq;
    }
    if (looks++ % GROUPS_EVERY == 0) groups = api.groups();
    List<Long> runningIds = jobs.stream().filter(j -> j.state() == JobState.RUNNING).map(Job::id).toList();
    return new MachineView(api.now(), ZoneId.systemDefault(), user, gpus, api.processes(pids), api.who(), jobs,
        api.waitReasons(), runningIds.isEmpty() ? Map.of() : api.progress(runningIds), groups,
        api.queueState().queueHeld());
  }
}
