package dev.gq.actors.socket;

import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.scheduler.SchedulerView;
import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.CancelOutcome;
import dev.gq.api.ApiReplies.DaemonInfo;
import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.api.ApiReplies.QueueState;
import dev.gq.cli.Gq;
import dev.gq.core.cluster.ClusterBatches;
import dev.gq.core.health.Unwell;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.QueueOrder;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.JobChanges;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.schedule.CancelResult;
import dev.gq.core.schedule.Request;
import dev.gq.protocol.Protocol;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The requests the Scheduler answers alone, from its ledger and GPU view: the queue's state, why
 * jobs wait, the GPUs, the daemon's state, and the commands that change live jobs, groups and GPUs
 * (cancel, hold and release the queue or a group, limit, change, to the front, hold jobs, drain). Each replies with the line to show.
 */
final class QueueRequests {
  private final SchedulerAsks asks;
  private final String dataDir;
  private final Supplier<String> warning;
  /** How long a plan made for a listing's pages is used for later pages of the same events. */
  static final Duration PLAN_KEPT = Duration.ofSeconds(5);

  private volatile PlannedReasons planned;

  QueueRequests(SchedulerAsks asks, String dataDir, Supplier<String> warning) {
    this.asks = asks;
    this.dataDir = dataDir;
    this.warning = warning;
  }

  QueueState queueState() throws ApiException {
    // asked after every submit: the ledger alone, not a whole view with its plan
    Ledger l = asks.askPlain(Scheduler.GetLedger::new);
    return new QueueState(l.queueHeld(), l.holds(), l.settings().maxRunning(), l.settings().unreachable());
  }

  Map<Long, WaitReason> waitReasons() throws ApiException {
    return reasons(asks.view());
  }

  /**
   * Why each waiting job among {@code ids} waits: from the ledger alone when a hold, a dependency or
   * the Slurm cluster keeps it (as the plan would say), and for the others from one plan of the queue
   * kept for the pages of a listing ({@link PlannedReasons}): made again once the Scheduler has
   * stored another event or the plan is {@link #PLAN_KEPT} old, so that a listing of any length
   * costs about one plan and holds its page's reasons alone, and a screen of held jobs plans nothing.
   */
  Map<Long, WaitReason> waitReasons(Collection<Long> ids) throws ApiException {
    Ledger l = asks.askPlain(Scheduler.GetLedger::new);
    Map<Long, WaitReason> out = new HashMap<>();
    List<Long> planned = new ArrayList<>();
    for (Long id : ids) {
      Job j = l.live().get(id);
      if (j == null || j.state() != JobState.WAITING) continue;
      WaitReason why = j.spec().onCluster() ? ClusterBatches.waitReason(l, j) : l.blocked(j);
      if (why != null) out.put(id, why);
      else planned.add(id);
    }
    if (planned.isEmpty()) return out;
    long seqNr = asks.askPlain(Scheduler.GetSeqNr::new);
    PlannedReasons p = this.planned;
    if (p == null || p.seqNr() != seqNr || System.nanoTime() - p.madeNanos() > PLAN_KEPT.toNanos()) {
      SchedulerView view = asks.view();
      p = PlannedReasons.of(view.seqNr(), System.nanoTime(), reasons(view));
      this.planned = p;
    }
    for (long id : planned) {
      WaitReason r = p.get(id);
      if (r != null) out.put(id, r);
    }
    return out;
  }

  private static Map<Long, WaitReason> reasons(SchedulerView view) {
    Map<Long, WaitReason> cluster = ClusterBatches.waitReasons(view.ledger());
    if (cluster.isEmpty()) return view.waitReasons();
    Map<Long, WaitReason> all = new HashMap<>(view.waitReasons());
    all.putAll(cluster);
    return all;
  }

  /** The places in the queue of those of {@code ids} that are queued: from the ledger alone, which orders it without a plan. */
  Map<Long, Integer> positions(Collection<Long> ids) throws ApiException {
    return QueueOrder.positions(asks.askPlain(Scheduler.GetLedger::new).live().values(), ids);
  }

  Map<Long, Instant> idleJobs() throws ApiException {
    return asks.view().idle();
  }

  Map<String, String> holds() throws ApiException {
    // the ledger alone: a whole view would plan every waiting job again
    return asks.askPlain(Scheduler.GetLedger::new).holds();
  }

  GpuReport gpus() throws ApiException {
    SchedulerView v = asks.view();
    Map<String, String> unwell = new HashMap<>();
    v.ledger().settings().drained().forEach((uuid, reason) -> {
      if (Unwell.byHealth(reason)) unwell.put(uuid, Unwell.problem(reason));
    });
    return new GpuReport(v.gpus(), v.probe(), v.fake(), v.gpuError(), v.figures(), unwell, v.shareHeadroomMiB());
  }

  DaemonInfo daemonInfo() throws ApiException {
    SchedulerView v = asks.view();
    int running = 0, waiting = 0;
    for (Job j : v.ledger().live().values()) {
      if (j.state() == JobState.WAITING) waiting++;
      else running++;
    }
    return new DaemonInfo(ProcessHandle.current().pid(), Gq.VERSION, Protocol.VERSION, dataDir, v.probe(),
        v.fake(), v.gpuError(), Math.max(v.gpuCount(), 0), running, waiting, warning.get());
  }

  List<CancelOutcome> cancel(List<Long> ids) throws ApiException {
    List<CancelResult> rs = asks.ask(new Request.Cancel(ids));
    return rs.stream().map(r -> new CancelOutcome(r.id(), CancelOutcome.Kind.valueOf(r.kind()), r.message())).toList();
  }

  String holdQueue(String group) throws ApiException {
    return asks.ask(new Request.HoldQueue(group));
  }

  String releaseQueue(String group) throws ApiException {
    return asks.ask(new Request.ReleaseQueue(group));
  }

  String limitGroup(String group, Integer maxRunning) throws ApiException {
    return asks.ask(new Request.LimitGroup(group, maxRunning));
  }

  String perGpuGroup(String group, Integer perGpu) throws ApiException {
    return asks.ask(new Request.SharePerGpu(group, perGpu));
  }

  String changeJob(long id, JobChanges.Change change) throws ApiException {
    return asks.ask(new Request.ChangeJob(id, change));
  }

  String toFront(long id) throws ApiException {
    return asks.ask(new Request.ToFront(id));
  }

  String holdJobs(List<Long> ids, boolean held) throws ApiException {
    return asks.ask(new Request.HoldJobs(ids, held));
  }

  String drainGpu(String uuid, int index, String reason) throws ApiException {
    return asks.ask(new Request.DrainGpu(uuid, index, reason));
  }
}
