package dev.gq.actors.socket;

import dev.gq.actors.fair.FairSource;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.scheduler.JournalWrites;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.cli.ApiException;
import dev.gq.cli.GqApi;
import dev.gq.cli.Notices;
import dev.gq.cli.NotifyApi;
import dev.gq.cli.StartSettings;
import dev.gq.cli.WebControl;
import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.JobChanges;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.Preemption;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.progress.Estimate;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.schedule.Preemptions;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import dev.gq.protocol.DiskRoom;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The daemon's side of {@link GqApi}: each request goes to the class that answers it. Jobs added in
 * {@link SubmitRequests}; the history and the journal read in {@link HistoryRequests}; what the
 * Scheduler answers alone in {@link QueueRequests}; running jobs' progress in
 * {@link ProgressRequests}; the machine beyond the queue in {@link MachineRequests}; the shared
 * machine in {@link FairRequests}. Every one reaches the actors through {@link SchedulerAsks}. The
 * parts the daemon starts later are handed over by the {@code ...From} methods.
 */
public final class DaemonApi implements GqApi {
  /** The start-up settings from the daemon's environment, as it read them when it started. */
  private static final Map<String, String> START_SETTINGS = startSettings(System.getenv());

  private final Clock clock;
  private final Path dataDir;
  private final Runnable shutdown;
  private final Notices notices = new Notices(1000);
  private final SchedulerAsks asks;
  private final SubmitRequests submits;
  private final HistoryRequests history;
  private final QueueRequests queue;
  private final ProgressRequests progress;
  private final MachineRequests machine;
  private final FairRequests fair = new FairRequests();
  private volatile NotifyApi notifications;
  private volatile Supplier<List<String>> parts = List::of;

  public DaemonApi(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector,
      JobHistory jobHistory, JournalReader journal, String dataDir, Runnable shutdown, Supplier<String> warning,
      Clock clock) {
    this.clock = clock;
    this.dataDir = Path.of(dataDir);
    this.shutdown = shutdown;
    this.asks = new SchedulerAsks(system, scheduler, projector, jobHistory::committed);
    Path run = this.dataDir.resolve("run");
    this.submits = new SubmitRequests(asks, new SweepRequests(jobHistory), this.dataDir);
    this.history = new HistoryRequests(asks, jobHistory, journal, new JobFiles(this.dataDir.resolve("logs"), run));
    this.queue = new QueueRequests(asks, dataDir, warning);
    this.progress = new ProgressRequests(run, clock);
    this.machine = new MachineRequests(asks, system);
  }

  /**
   * Where {@code gq adopt} reads processes, whose uid the caller has (the socket serves only the
   * daemon's user), and where every gq keeps its GPU leases (a process holding one is a job's).
   */
  public void adoptFrom(ProcessTable procs, long uid, Path leaseDir) {
    machine.adoptFrom(procs, uid, leaseDir);
  }

  /** The database {@code gq report} reads the history and the GPU spans from. */
  public void usageFrom(Path database) {
    machine.usageFrom(database);
  }

  /**
   * Where {@code gq top} reads the GPUs' recent figures (kept from the daemon's own readings) and
   * the user, command and start of the processes a GPU lists.
   */
  public void topFrom(GpuHistory gpuHistory, ProcessTable procs) {
    machine.topFrom(gpuHistory, procs);
  }

  /** Where {@code gq daemon status} reads how each part of the daemon is doing. */
  public void partsFrom(Supplier<List<String>> lines) {
    this.parts = lines;
  }

  /** Where {@code gq notify} finds the targets and their deliveries. */
  public void notifyThrough(NotifyApi notifications) {
    this.notifications = notifications;
  }

  /** Where {@code gq who} and {@code gq daemon status} read the shared machine: the policy, everyone's demand. */
  public void fairFrom(FairSource source) {
    fair.from(source);
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
  public UsageFacts usage(Instant from, Instant to) throws ApiException {
    if (!machine.reports()) return GqApi.super.usage(from, to);
    asks.synced();
    List<JobSpan.GpuRef> now = gpus().gpus().stream().map(g -> new JobSpan.GpuRef(g.uuid(), g.index(), g.totalMiB())).toList();
    return machine.usage(from, to, now);
  }

  @Override public NotifyApi notifications() throws ApiException {
    NotifyApi n = notifications;
    return n == null ? GqApi.super.notifications() : n;
  }

  @Override
  public Map<Long, Estimate> progress(List<Long> ids) throws ApiException {
    return ids.isEmpty() ? Map.of() : progress.estimates(ids, running());
  }

  /** The ledger alone: no classification or plan is needed. */
  @Override public Map<Long, Preemption> preemptions() throws ApiException {
    return asks.askPlain(Scheduler.GetLedger::new).settings().preempting();
  }

  @Override public String journalProblem() { return JournalWrites.status(dataDir.resolve("gq.db"), DiskRoom.fullNote(dataDir)); }

  static Map<String, String> startSettings(Map<String, String> env) {
    Map<String, String> m = new HashMap<>();
    for (String name : StartSettings.NAMES) if (env.get(name) != null) m.put(name, env.get(name));
    return Map.copyOf(m);
  }

  // Each of these is answered by one of the classes above, as it is.

  @Override public SubmitResult submit(JobSpec spec, Integer maxRunning) throws ApiException {
    SubmitResult r = submits.submit(spec, maxRunning);
    fair.published(); // other users' gq see this user wait before the submit returns
    return r;
  }
  @Override public List<BatchOutcome> submitBatch(List<BatchLine> lines, String group, Integer maxRunning) throws ApiException {
    List<BatchOutcome> r = submits.submitBatch(lines, group, maxRunning);
    fair.published();
    return r;
  }
  @Override public RetryReport retry(List<Long> ids, Set<JobState> states) throws ApiException {
    return submits.retry(ids, states, null);
  }
  @Override public RetryReport retry(List<Long> ids, Set<JobState> states, String group) throws ApiException {
    return submits.retry(ids, states, group);
  }
  @Override public List<String> preempt(Preemptions.Ask ask) throws ApiException { return submits.preempt(ask); }
  @Override public ResumeReport resume(List<Long> ids, String from) throws ApiException { return submits.resume(ids, from); }
  @Override public RetryReport recover() throws ApiException { return submits.recover(); }
  @Override public List<Job> jobs(JobQuery q) throws ApiException { return history.jobs(q); }
  @Override public JobPage jobPage(JobQuery q) throws ApiException { return history.jobPage(q); }
  @Override public JobPage listingPage(JobQuery q, boolean logPaths) throws ApiException { return history.listingPage(q, logPaths); }
  @Override public Optional<Job> job(long id) throws ApiException { return history.job(id); }
  @Override public Optional<Job> newestAttempt(long id) throws ApiException { return history.newestAttempt(id); }
  @Override public long count(JobQuery q) throws ApiException { return history.count(q); }
  @Override public List<GroupSummary> groups() throws ApiException { return history.groups(null); }
  @Override public Optional<GroupSummary> group(String name) throws ApiException {
    return history.groups(name).stream().findFirst();
  }
  @Override public List<Long> remove(List<Long> ids) throws ApiException { return history.remove(ids); }
  @Override public int clean(Instant endedBefore, Set<JobState> states) throws ApiException {
    return history.clean(endedBefore, states);
  }
  @Override public List<StoredEvent> events(long afterSeq, Long jobId, Instant since, int limit) throws ApiException {
    return history.events(afterSeq, jobId, since, limit);
  }
  @Override public long eventsTail(Long jobId, Instant since, int count) throws ApiException {
    return history.eventsTail(jobId, since, count);
  }
  @Override public Optional<FileChannel> openLog(Path path) throws ApiException, IOException {
    return history.openLog(path);
  }

  @Override public QueueState queueState() throws ApiException { return queue.queueState(); }
  @Override public Map<Long, WaitReason> waitReasons() throws ApiException { return queue.waitReasons(); }
  @Override public Map<Long, WaitReason> waitReasons(Collection<Long> ids) throws ApiException { return queue.waitReasons(ids); }
  @Override public Map<Long, Integer> queuePositions(Collection<Long> ids) throws ApiException { return queue.positions(ids); }
  @Override public Map<Long, Instant> idleJobs() throws ApiException { return queue.idleJobs(); }
  @Override public Map<String, String> holds() throws ApiException { return queue.holds(); }
  @Override public GpuReport gpus() throws ApiException { return queue.gpus(); }
  @Override public DaemonInfo daemonInfo() throws ApiException { return queue.daemonInfo(); }
  @Override public List<CancelOutcome> cancel(List<Long> ids) throws ApiException { return queue.cancel(ids); }
  @Override public String holdQueue(String group) throws ApiException { return queue.holdQueue(group); }
  @Override public String releaseQueue(String group) throws ApiException { return queue.releaseQueue(group); }
  @Override public String limitGroup(String group, Integer maxRunning) throws ApiException {
    return queue.limitGroup(group, maxRunning);
  }
  @Override public String perGpuGroup(String group, Integer perGpu) throws ApiException {
    return queue.perGpuGroup(group, perGpu);
  }
  @Override public String changeJob(long id, JobChanges.Change change) throws ApiException {
    return queue.changeJob(id, change);
  }
  @Override public String toFront(long id) throws ApiException { return queue.toFront(id); }
  @Override public String holdJobs(List<Long> ids, boolean held) throws ApiException { return queue.holdJobs(ids, held); }
  @Override public String drainGpu(String uuid, int index, String reason) throws ApiException {
    return queue.drainGpu(uuid, index, reason);
  }
  @Override public AdoptOutcome adopt(long pid, String name, String group, String key) throws ApiException {
    return machine.adopt(pid, name, group, key);
  }
  @Override public Map<String, GpuHistory.Trace> gpuTraces() { return machine.gpuTraces(); }
  @Override public Map<Long, ProcessView> processes(Collection<Long> pids) { return machine.processes(pids); }
  @Override public WebControl web() { return machine.web(this); }
  @Override public WhoReport who() { return fair.who(); }
  @Override public BookingLine book(int count, List<String> gpus, Instant start, Instant end) throws ApiException {
    return fair.book(count, gpus, start, end);
  }
  @Override public List<BookingLine> bookings() throws ApiException { return fair.bookings(); }
  @Override public String cancelBooking(String id) throws ApiException { return fair.cancel(id); }
  @Override public String drainGpuForEveryone(String uuid, int index, String reason)
      throws ApiException { return fair.drainForEveryone(uuid, index, reason); }
  /** The daemon's clock, which job times are taken from. */
  @Override public Instant now() { return clock.instant(); }
  @Override public List<String> partLines() { return parts.get(); }
  @Override public Map<String, String> startSettings() { return START_SETTINGS; }
  @Override public boolean firstNotice(String note) { return notices.first(note); }
  @Override public void shutdown() { shutdown.run(); }
}
