package dev.gq.web;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@link MachineView} from the daemon through the calls the commands make, nothing of its
 * own: the groups, counted over the whole history, only every few looks, and the jobs only when the
 * journal has moved or a job runs (whose progress moves without an event). The live jobs are counted
 * by state as the scheduler holds them; only the active ones and the {@link #WAITING_SHOWN} oldest
 * waiting ones are read whole, with why they wait, so that a look costs the same however long the
 * queue. One per page server.
 */
final class ViewReads {
  /** Ended jobs shown under the live ones, as gq top shows them. */
  static final int RECENT = 30;
  /** Waiting jobs the page lists at most (the oldest, which start first); the others are counted. */
  static final int WAITING_SHOWN = 200;
  private static final int GROUPS_EVERY = 5;

  private final GqApi api;
  private final String user;
  private List<GroupSummary> groups = List.of();
  private List<Job> jobs = List.of();
  private Map<JobState, Integer> counts = Map.of();
  private Map<Long, WaitReason> waits = Map.of();
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
      readJobs();
      seenSeq = seq;
    }
    if (looks++ % GROUPS_EVERY == 0) groups = api.groups();
    List<Long> runningIds = jobs.stream().filter(j -> j.state() == JobState.RUNNING).map(Job::id).toList();
    return new MachineView(api.now(), ZoneId.systemDefault(), user, gpus, api.processes(pids), api.who(), jobs, waits,
        runningIds.isEmpty() ? Map.of() : api.progress(runningIds), groups, api.queueState().queueHeld(), counts);
  }

  /**
   * The jobs the page lists (the active ones by id, the oldest waiting ones, then the newest ended),
   * why those waiting wait, and every live job counted by state.
   */
  private void readJobs() throws ApiException {
    // the ended ones first: the scheduler is never behind the history, so no job is in both
    List<Job> ended = api.jobPage(new JobQuery(List.of(), JobState.ended(), null, RECENT)).jobs();
    int[] byState = new int[JobState.values().length];
    List<Long> listed = new ArrayList<>();
    List<Long> waiting = new ArrayList<>();
    for (Job j : api.liveJobs()) {
      byState[j.state().ordinal()]++;
      if (j.state() != JobState.WAITING) listed.add(j.id());
      else if (waiting.size() < WAITING_SHOWN) waiting.add(j.id());
    }
    listed.addAll(waiting);
    List<Job> live = new ArrayList<>(listed.isEmpty() ? List.of()
        : api.jobPage(JobQuery.ids(listed, JobState.live())).jobs());
    // active first, then waiting, each oldest first
    live.sort((a, b) -> a.state() == JobState.WAITING != (b.state() == JobState.WAITING)
        ? (a.state() == JobState.WAITING ? 1 : -1) : Long.compare(a.id(), b.id()));
    List<Job> all = new ArrayList<>(live);
    all.addAll(ended);
    jobs = all;
    Map<JobState, Integer> counted = new EnumMap<>(JobState.class);
    for (JobState st : JobState.values()) if (byState[st.ordinal()] > 0) counted.put(st, byState[st.ordinal()]);
    counts = counted;
    waits = waiting.isEmpty() ? Map.of() : api.waitReasons(waiting);
  }
}
