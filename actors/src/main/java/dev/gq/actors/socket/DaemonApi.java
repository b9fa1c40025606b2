package dev.gq.actors.socket;

import dev.gq.actors.fair.FairSource;
import dev.gq.actors.projector.Projector;
import dev.gq.actors.scheduler.JournalWrites;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.api.Notices;
import dev.gq.api.NotifyApi;
import dev.gq.api.StartSettings;
import dev.gq.api.WebControl;
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
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageRows;
import dev.gq.core.schedule.Preemptions;
import dev.gq.persistence.JobHistory;
import dev.gq.persistence.JournalReader;
import dev.gq.protocol.DiskRoom;
import dev.gq.protocol.GqPaths;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * The daemon's side of {@link GqApi}: each request goes to the class that answers it. Jobs added in
 * {@link SubmitRequests}; the history and the journal read in {@link HistoryRequests}; what the
 * Scheduler answers alone in {@link QueueRequests}; running jobs' progress in
 * {@link ProgressRequests}; the machine beyond the queue in {@link MachineRequests}; the shared
 * machine in {@link FairRequests}. Every one reaches the actors through {@link SchedulerAsks}. Made
 * once the daemon's parts are started, with all it answers from ({@link Actors}, {@link Stores},
 * {@link Machine}, {@link Host}).
 */
public final class DaemonApi implements GqApi {
  /** The actor system and the actors requests go to. */
  public record Actors(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector) {}

  /** The job history, the journal, and where the data directory keeps the database, logs and run files. */
  public record Stores(JobHistory history, JournalReader journal, GqPaths paths) {}

  /**
   * The machine beyond the queue: /proc (for {@code gq adopt}, whose processes the caller's uid owns
   * as the socket serves only the daemon's user, and {@code gq top}), where every gq keeps its GPU
   * leases (a process holding one is a job's), the GPUs' recent figures, the shared machine, and the
   * notification targets.
   */
  public record Machine(ProcessTable procs, long uid, Path leaseDir, GpuHistory gpuHistory, FairSource fair,
      NotifyApi notifications) {}

  /**
   * What the daemon itself answers: how each of its parts is doing, the warning its clients are told,
   * how to stop it, and its clock, which job times are taken from.
   */
  public record Host(Supplier<List<String>> partLines, Supplier<String> warning, Runnable shutdown, Clock clock) {}

  /** The start-up settings from the daemon's environment, as it read them when it started. */
  private static final Map<String, String> START_SETTINGS = StartSettings.of(System.getenv());

  private final Clock clock;
  private final Path dataDir;
  private final Path database;
  private final Runnable shutdown;
  private final Notices notices = new Notices(1000);
  private final SchedulerAsks asks;
  private final SubmitRequests submits;
  private final HistoryRequests history;
  private final QueueRequests queue;
  private final ProgressRequests progress;
  private final MachineRequests machine;
  private final FairRequests fair;
  private final NotifyApi notifications;
  private final Supplier<List<String>> parts;

  public DaemonApi(Actors actors, Stores stores, Machine machine, Host host) {
    this.clock = host.clock();
    this.dataDir = stores.paths().dataDir();
    this.database = stores.paths().database();
    this.shutdown = host.shutdown();
    this.parts = host.partLines();
    this.notifications = machine.notifications();
    this.fair = new FairRequests(machine.fair());
    JobHistory jobHistory = stores.history();
    this.asks = new SchedulerAsks(actors.system(), actors.scheduler(), actors.projector(), jobHistory::committed);
    Path run = stores.paths().exitDir();
    this.submits = new SubmitRequests(asks, new SweepRequests(jobHistory), dataDir);
    this.history = new HistoryRequests(asks, jobHistory, stores.journal(), new JobFiles(stores.paths().logDir(), run));
    this.queue = new QueueRequests(asks, dataDir.toString(), host.warning());
    this.progress = new ProgressRequests(run, clock);
    this.machine = new MachineRequests(actors.system(), new AdoptRequests(asks, machine.procs(), machine.uid(),
        machine.leaseDir()), database, machine.gpuHistory(), machine.procs());
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
  public void usage(Instant from, Instant to, boolean held, Function<UsageFacts, UsageRows> reader) throws ApiException {
    asks.synced();
    machine.usage(from, to, held, gpus(), reader);
  }

  @Override
  public NotifyApi notifications() {
    return notifications;
  }

  @Override public Map<Long, Estimate> progress(List<Long> ids) throws ApiException {
    return ids.isEmpty() ? Map.of() : progress.estimates(ids, running());
  }

  @Override public Map<Long, Preemption> preemptions() throws ApiException {
    // the ledger alone: no classification or plan is needed
    return asks.askPlain(Scheduler.GetLedger::new).settings().preempting();
  }

  @Override
  public String journalProblem() {
    return JournalWrites.status(database, DiskRoom.fullNote(dataDir));
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
  @Override public List<String> preempt(Preemptions.PreemptAsk ask) throws ApiException { return submits.preempt(ask); }
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
  /** The Scheduler's memory, as it is (immutable): no history read, nothing decoded or copied. */
  @Override public Collection<Job> liveJobs() throws ApiException {
    return asks.askPlain(Scheduler.GetLedger::new).live().values();
  }
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
