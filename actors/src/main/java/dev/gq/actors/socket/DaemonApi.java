package dev.gq.actors.socket;

import dev.gq.actors.projector.Projector;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.cli.ApiException;
import dev.gq.cli.GqApi;
import dev.gq.cli.Notices;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.JobChanges;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.schedule.Request;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.JobHistory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The daemon's side of {@link GqApi}: submissions and retries here; the requests answered from the
 * history and the journal in {@link HistoryRequests}; those the Scheduler answers alone in
 * {@link QueueRequests}; running jobs' progress in {@link ProgressRequests}. Every one reaches the
 * actors through {@link SchedulerAsks}.
 */
public final class DaemonApi implements GqApi {
  private final java.time.Clock clock;
  private final String dataDir;
  private final Runnable shutdown;
  private final Notices notices = new Notices(1000);
  private final SchedulerAsks asks;
  private final HistoryRequests history;
  private final QueueRequests queue;
  private final SweepRequests sweeps;
  private final ProgressRequests progress;
  private volatile AdoptRequests adoptions;
  private volatile dev.gq.cli.NotifyApi notifications;
  private volatile Supplier<List<String>> parts = List::of;
  private volatile Path database;
  private volatile dev.gq.core.gpu.GpuHistory gpuHistory;
  private volatile dev.gq.core.proc.ProcessTable procs;
  private volatile dev.gq.actors.fair.FairSource fair;

  public DaemonApi(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector,
      JobHistory jobHistory, JournalReader journal, String dataDir, Runnable shutdown, Supplier<String> warning,
      java.time.Clock clock) {
    this.clock = clock;
    this.dataDir = dataDir;
    this.shutdown = shutdown;
    this.asks = new SchedulerAsks(system, scheduler, projector);
    Path data = Path.of(dataDir);
    this.history = new HistoryRequests(asks, jobHistory, journal, new JobFiles(data.resolve("logs"), data.resolve("run")));
    this.queue = new QueueRequests(asks, dataDir, warning);
    this.sweeps = new SweepRequests(jobHistory);
    this.progress = new ProgressRequests(data.resolve("run"), clock);
  }

  /**
   * Where {@code gq adopt} reads processes, whose uid the caller has (the socket serves only the
   * daemon's user), and where every gq keeps its GPU leases (a process holding one is a job's).
   */
  public void adoptFrom(dev.gq.core.proc.ProcessTable procs, long uid, Path leaseDir) {
    this.adoptions = new AdoptRequests(asks, procs, uid, leaseDir);
  }

  /** The database {@code gq report} reads the history and the GPU spans from. */
  public void usageFrom(Path database) {
    this.database = database;
  }

  @Override
  public dev.gq.core.report.UsageFacts usage(Instant from, Instant to) throws ApiException {
    if (database == null) return GqApi.super.usage(from, to);
    asks.synced();
    List<dev.gq.core.report.JobSpan.GpuRef> now = gpus().gpus().stream()
        .map(g -> new dev.gq.core.report.JobSpan.GpuRef(g.uuid(), g.index())).toList();
    try {
      return new dev.gq.core.report.UsageFacts(dev.gq.persistence.UsageReads.jobs(database, from, to),
          dev.gq.persistence.GpuSpans.read(database, from, to), now);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  /**
   * Where {@code gq top} reads the GPUs' recent figures (kept from the daemon's own readings) and
   * the user, command and start of the processes a GPU lists.
   */
  public void topFrom(dev.gq.core.gpu.GpuHistory history, dev.gq.core.proc.ProcessTable procs) {
    this.gpuHistory = history;
    this.procs = procs;
  }

  @Override
  public Map<String, dev.gq.core.gpu.GpuHistory.Trace> gpuTraces() {
    var h = gpuHistory;
    return h == null ? Map.of() : h.traces();
  }

  @Override
  public Map<Long, ProcessView> processes(java.util.Collection<Long> pids) {
    var table = procs;
    if (table == null) return Map.of();
    return ProcessViews.of(table, pids);
  }

  /** Where {@code gq daemon status} reads how each part of the daemon is doing. */
  public void partsFrom(Supplier<List<String>> lines) {
    this.parts = lines;
  }

  @Override
  public List<String> partLines() {
    return parts.get();
  }

  /** Where {@code gq notify} finds the targets and their deliveries. */
  public void notifyThrough(dev.gq.cli.NotifyApi notifications) {
    this.notifications = notifications;
  }

  @Override
  public dev.gq.cli.NotifyApi notifications() throws ApiException {
    if (notifications == null) return GqApi.super.notifications();
    return notifications;
  }

  @Override
  public dev.gq.core.adopt.AdoptOutcome adopt(long pid, String name, String group, String key) throws ApiException {
    if (adoptions == null)
      throw new ApiException("this daemon cannot adopt a process; restart it with 'gq daemon stop' (jobs keep running)");
    return adoptions.adopt(pid, name, group, key);
  }

  /** The daemon's clock, which job times are taken from. */
  @Override
  public Instant now() {
    return clock.instant();
  }

  @Override
  public SubmitResult submit(JobSpec spec, Integer maxRunning) throws ApiException {
    requireRoom("the job");
    var facts = spec.after().isEmpty() ? Map.<Long, LineageFact>of() : facts(SweepRequests.dependencies(List.of(spec)));
    Ledger.SubmitOutcome o = asks.ask(new Request.Submit(spec, facts, maxRunning));
    return new SubmitResult(o.jobId(), o.skipped(), o.state(), o.message(), o.queueing());
  }

  @Override
  public List<BatchOutcome> submitBatch(List<BatchLine> lines, String group, Integer maxRunning) throws ApiException {
    requireRoom("the jobs");
    List<JobSpec> specs = lines.stream().map(BatchLine::spec).toList();
    List<Integer> numbers = lines.stream().map(BatchLine::line).toList();
    Set<Long> deps = SweepRequests.dependencies(specs);
    var facts = deps.isEmpty() ? Map.<Long, LineageFact>of() : facts(deps);
    List<Ledger.SubmitOutcome> os = asks.ask(new Request.SubmitBatch(specs, numbers, facts, group, maxRunning));
    // Reply once the history has the batch: a script queueing batch after batch must not outrun
    // the history, whose backlog of events would otherwise pile up in memory.
    asks.synced();
    return SweepRequests.outcomes(numbers, os);
  }

  @Override
  public RetryReport retry(List<Long> ids, Set<JobState> states) throws ApiException {
    return retry(ids, states, null);
  }

  @Override
  public RetryReport retry(List<Long> ids, Set<JobState> states, String group) throws ApiException {
    Request.Retry r;
    try {
      r = sweeps.retry(asks.synced().ledger(), ids, states == null ? Set.of() : Set.copyOf(states), group);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
    return SweepRequests.report(asks.ask(r));
  }

  @Override
  public List<String> preempt(dev.gq.core.schedule.Preemptions.Ask ask) throws ApiException {
    return asks.ask(new Request.Preempt(ask));
  }

  @Override
  public ResumeReport resume(List<Long> ids, String from) throws ApiException {
    Request.Retry r;
    try {
      r = sweeps.retry(asks.synced().ledger(), ids, Set.of(), null);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
    var resume = new Request.ResumeJobs(r.ids(), r.found(), r.cwdGone(), from, r.facts());
    RetryReport report = SweepRequests.report(asks.ask(resume));
    return SweepRequests.resumed(report, r.found(), from);
  }

  @Override
  public RetryReport recover() throws ApiException {
    asks.synced();
    try {
      // each resumes from its newest checkpoint, if it left one
      Request.Retry r = sweeps.retry(asks.synced().ledger(), sweeps.interrupted(), Set.of(JobState.INTERRUPTED), null);
      return SweepRequests.report(asks.ask(new Request.ResumeJobs(r.ids(), r.found(), r.cwdGone(), null, r.facts())));
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  private void requireRoom(String what) throws ApiException {
    String full = dev.gq.protocol.DiskRoom.fullNote(Path.of(dataDir));
    if (full != null) throw new ApiException("cannot accept " + what + ": " + full + "; free some space and submit again");
  }

  /** What the history says about the ended jobs among {@code ids}, as of the Scheduler's view now. */
  private Map<Long, LineageFact> facts(Set<Long> ids) throws ApiException {
    try {
      return sweeps.facts(asks.synced().ledger(), ids);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  @Override
  public Optional<FileChannel> openLog(Path path) throws ApiException, IOException {
    return history.openLog(path);
  }

  @Override
  public Map<Long, dev.gq.core.progress.Estimate> progress(List<Long> ids) throws ApiException {
    if (ids.isEmpty()) return Map.of();
    return progress.estimates(ids, running());
  }

  /**
   * Notes the progress of every running job (the daemon does so periodically). Asks the Scheduler's
   * memory first, so that with nothing running it touches no file and no database.
   */
  public void sampleProgress() throws ApiException {
    Ledger l = asks.askPlain(Scheduler.GetLedger::new);
    if (l.live().values().stream().noneMatch(j -> j.state() == JobState.RUNNING)) return;
    List<Job> running = running();
    if (!running.isEmpty()) progress.estimates(running.stream().map(Job::id).toList(), running);
  }

  private List<Job> running() throws ApiException {
    return history.jobs(new JobQuery(List.of(), Set.of(JobState.RUNNING), null, 0));
  }

  @Override
  public List<Job> jobs(JobQuery q) throws ApiException {
    return history.jobs(q);
  }

  @Override
  public JobPage jobPage(JobQuery q) throws ApiException {
    return history.jobPage(q);
  }

  @Override
  public Optional<Job> job(long id) throws ApiException {
    return history.job(id);
  }

  @Override
  public Optional<Job> newestAttempt(long id) throws ApiException {
    return history.newestAttempt(id);
  }

  @Override
  public long count(JobQuery q) throws ApiException {
    return history.count(q);
  }

  @Override
  public List<GroupSummary> groups() throws ApiException {
    return history.groups(null);
  }

  @Override
  public Optional<GroupSummary> group(String name) throws ApiException {
    return history.groups(name).stream().findFirst();
  }

  @Override
  public List<Long> remove(List<Long> ids) throws ApiException {
    return history.remove(ids);
  }

  @Override
  public int clean(Instant endedBefore, Set<JobState> states) throws ApiException {
    return history.clean(endedBefore, states);
  }

  @Override
  public List<StoredEvent> events(long afterSeq, Long jobId, Instant since, int limit) throws ApiException {
    return history.events(afterSeq, jobId, since, limit);
  }

  @Override
  public long eventsTail(Long jobId, Instant since, int count) throws ApiException {
    return history.eventsTail(jobId, since, count);
  }

  @Override
  public QueueState queueState() throws ApiException {
    return queue.queueState();
  }

  @Override
  public Map<Long, WaitReason> waitReasons() throws ApiException {
    return queue.waitReasons();
  }

  @Override
  public Map<Long, java.time.Instant> idleJobs() throws ApiException {
    return queue.idleJobs();
  }

  @Override
  public Map<Long, dev.gq.core.ledger.Preemption> preemptions() throws ApiException {
    // the ledger alone: no classification or plan is needed
    Ledger l = asks.askPlain(Scheduler.GetLedger::new);
    return l.settings().preempting();
  }

  @Override
  public Map<String, String> holds() throws ApiException {
    return queue.holds();
  }

  /** Where {@code gq who} and {@code gq daemon status} read the shared machine: the policy, everyone's demand. */
  public void fairFrom(dev.gq.actors.fair.FairSource source) {
    this.fair = source;
  }

  @Override
  public WhoReport who() {
    var f = fair;
    if (f == null) return null;
    var view = f.view();
    return new WhoReport(f.policyLine(), view.active() && view.policy().problem() == null,
        dev.gq.core.schedule.FairWho.rows(f.latest(), view.demands(), f.published(), f.self()), view.ignored(),
        view.bookings().stream().map(b -> line(b, f)).toList());
  }

  private static BookingLine line(dev.gq.core.fair.Booking b, dev.gq.actors.fair.FairSource f) {
    var o = f.latest();
    List<Integer> indices = b.gpus().stream().map(u -> o == null ? -1 : o.reading().devices().stream()
        .filter(d -> d.uuid().equals(u)).mapToInt(dev.gq.core.gpu.DeviceReading::index).findFirst().orElse(-1)).toList();
    return new BookingLine(b.id(), b.user(), indices, b.gpus(), b.start(), b.end());
  }

  private dev.gq.actors.fair.FairSource fair() throws ApiException {
    var f = fair;
    if (f == null) throw new ApiException("the daemon is still starting; try again in a moment");
    return f;
  }

  @Override
  public BookingLine book(int count, List<String> gpus, java.time.Instant start, java.time.Instant end) throws ApiException {
    var f = fair();
    return line(f.book(count, gpus, start, end), f);
  }

  @Override
  public List<BookingLine> bookings() throws ApiException {
    var f = fair();
    return f.bookings().stream().map(b -> line(b, f)).toList();
  }

  @Override
  public void cancelBooking(String id) throws ApiException {
    fair().cancel(id);
  }

  @Override
  public GpuReport gpus() throws ApiException {
    return queue.gpus();
  }

  @Override
  public DaemonInfo daemonInfo() throws ApiException {
    return queue.daemonInfo();
  }

  @Override
  public String journalProblem() {
    Path data = Path.of(dataDir);
    return dev.gq.actors.scheduler.JournalWrites.status(data.resolve("gq.db"), dev.gq.protocol.DiskRoom.fullNote(data));
  }

  @Override
  public List<CancelOutcome> cancel(List<Long> ids) throws ApiException {
    return queue.cancel(ids);
  }

  @Override
  public String holdQueue(String group) throws ApiException {
    return queue.holdQueue(group);
  }

  @Override
  public String releaseQueue(String group) throws ApiException {
    return queue.releaseQueue(group);
  }

  @Override
  public String limitGroup(String group, Integer maxRunning) throws ApiException {
    return queue.limitGroup(group, maxRunning);
  }

  @Override
  public String perGpuGroup(String group, Integer perGpu) throws ApiException {
    return queue.perGpuGroup(group, perGpu);
  }

  @Override
  public String changeJob(long id, JobChanges.Change change) throws ApiException {
    return queue.changeJob(id, change);
  }

  /** The start-up settings from the daemon's environment, as it read them when it started. */
  private static final Map<String, String> START_SETTINGS = startSettings(System.getenv());

  static Map<String, String> startSettings(Map<String, String> env) {
    Map<String, String> m = new java.util.HashMap<>();
    for (String name : dev.gq.cli.StartSettings.NAMES) if (env.get(name) != null) m.put(name, env.get(name));
    return Map.copyOf(m);
  }

  @Override
  public Map<String, String> startSettings() {
    return START_SETTINGS;
  }

  @Override
  public String toFront(long id) throws ApiException {
    return queue.toFront(id);
  }

  @Override
  public String holdJobs(List<Long> ids, boolean held) throws ApiException {
    return queue.holdJobs(ids, held);
  }

  @Override
  public String drainGpu(String uuid, int index, String reason) throws ApiException {
    return queue.drainGpu(uuid, index, reason);
  }

  @Override
  public boolean firstNotice(String note) {
    return notices.first(note);
  }

  @Override
  public void shutdown() {
    shutdown.run();
  }
}
