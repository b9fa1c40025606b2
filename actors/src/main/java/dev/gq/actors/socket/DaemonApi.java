package dev.gq.actors.socket;

import dev.gq.actors.projector.Projector;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.actors.scheduler.SchedulerView;
import dev.gq.cli.ApiException;
import dev.gq.cli.GqApi;
import dev.gq.cli.Notices;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.ledger.Retries;
import dev.gq.core.schedule.Request;
import dev.gq.persistence.JournalEntry;
import dev.gq.persistence.JournalReader;
import dev.gq.persistence.ReadSide;
import dev.gq.protocol.Protocol;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.pattern.StatusReply;

/**
 * The daemon's side of {@link GqApi}: commands go to the Scheduler by ask; history is read from the
 * read side after the Projector has caught up with the Scheduler's view, so a reader always sees
 * at least what the Scheduler had decided when the request arrived.
 */
public final class DaemonApi implements GqApi {
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final ActorSystem<?> system;
  private final ActorRef<Scheduler.Command> scheduler;
  private final ActorRef<Projector.Command> projector;
  private final ReadSide readSide;
  private final JournalReader journal;
  private final String dataDir;
  private final Runnable shutdown;
  private final java.util.function.Supplier<String> warning;
  private final Notices notices = new Notices(1000);
  private final HistoryRequests history;
  private final SweepRequests sweeps;

  public DaemonApi(ActorSystem<?> system, ActorRef<Scheduler.Command> scheduler, ActorRef<Projector.Command> projector,
      ReadSide readSide, JournalReader journal, String dataDir, Runnable shutdown,
      java.util.function.Supplier<String> warning) {
    this.system = system;
    this.scheduler = scheduler;
    this.projector = projector;
    this.readSide = readSide;
    this.journal = journal;
    this.dataDir = dataDir;
    this.shutdown = shutdown;
    this.warning = warning;
    java.nio.file.Path data = java.nio.file.Path.of(dataDir);
    this.history = new HistoryRequests(readSide, new JobFiles(data.resolve("logs"), data.resolve("run")));
    this.sweeps = new SweepRequests(readSide);
  }

  @Override
  public SubmitResult submit(JobSpec spec) throws ApiException {
    requireRoom("the job");
    var facts = spec.after().isEmpty() ? Map.<Long, LineageFact>of() : facts(SweepRequests.dependencies(List.of(spec)));
    Ledger.SubmitOutcome o = ask(new Request.Submit(spec, facts));
    return new SubmitResult(o.jobId(), o.skipped(), o.state(), o.message());
  }

  @Override
  public List<BatchOutcome> submitBatch(List<BatchLine> lines) throws ApiException {
    requireRoom("the jobs");
    List<JobSpec> specs = lines.stream().map(BatchLine::spec).toList();
    List<Integer> numbers = lines.stream().map(BatchLine::line).toList();
    Set<Long> deps = SweepRequests.dependencies(specs);
    var facts = deps.isEmpty() ? Map.<Long, LineageFact>of() : facts(deps);
    List<Ledger.SubmitOutcome> os = ask(new Request.SubmitBatch(specs, numbers, facts));
    // Reply once the history has the batch: a script queueing batch after batch must not outrun
    // the read side, whose backlog of events would otherwise pile up in memory.
    synced();
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
      r = sweeps.retry(synced().ledger(), ids, states == null ? Set.of() : Set.copyOf(states), group);
    } catch (SQLException e) {
      throw historyFailed(e);
    }
    return SweepRequests.report(ask(r));
  }

  @Override
  public RetryReport recover() throws ApiException {
    synced();
    try {
      return retry(sweeps.interrupted(), Set.of(JobState.INTERRUPTED));
    } catch (SQLException e) {
      throw historyFailed(e);
    }
  }

  private void requireRoom(String what) throws ApiException {
    String full = dev.gq.actors.runner.DiskSpace.fullNote(java.nio.file.Path.of(dataDir));
    if (full != null) throw new ApiException("cannot accept " + what + ": " + full + "; free some space and submit again");
  }

  /** What the history says about the ended jobs among {@code ids}, as of the Scheduler's view now. */
  private Map<Long, LineageFact> facts(Set<Long> ids) throws ApiException {
    try {
      return sweeps.facts(synced().ledger(), ids);
    } catch (SQLException e) {
      throw historyFailed(e);
    }
  }

  /** Asks the Scheduler to decide {@code request}; its refusal becomes an ApiException with the line to show. */
  private <T> T ask(Request<T> request) throws ApiException {
    return await(AskPattern.<Scheduler.Command, T>askWithStatus(scheduler, r -> new Scheduler.Ask<>(request, r), TIMEOUT,
        system.scheduler()));
  }

  /** Tells the Scheduler that these ended jobs left the history, so the keys they held are free. */
  private void forget(List<Long> ids) throws ApiException {
    if (ids.isEmpty()) return;
    ask(new Request.Remove(ids));
  }

  @Override
  public List<Job> jobs(JobQuery q) throws ApiException {
    synced();
    try {
      return readSide.listed(q);
    } catch (SQLException e) {
      throw new ApiException("cannot read the job history: " + e.getMessage());
    }
  }

  @Override
  public dev.gq.core.job.JobPage jobPage(JobQuery q) throws ApiException {
    synced();
    try {
      return readSide.page(q);
    } catch (SQLException e) {
      throw new ApiException("cannot read the job history: " + e.getMessage());
    }
  }

  @Override
  public Optional<Job> job(long id) throws ApiException {
    // synced: the history has every event the view has, so its row is the job's whole current
    // record (the Scheduler's memory keeps a live job without its command and log path)
    SchedulerView v = synced();
    try {
      Optional<Job> stored = readSide.job(id);
      return stored.isPresent() ? stored : Optional.ofNullable(v.ledger().live().get(id));
    } catch (SQLException e) {
      throw new ApiException("cannot read the job history: " + e.getMessage());
    }
  }

  @Override
  public Optional<java.nio.channels.FileChannel> openLog(java.nio.file.Path path) throws ApiException, java.io.IOException {
    try {
      return Optional.of(dev.gq.host.fs.RegularFiles.openForReading(path));
    } catch (java.nio.file.NoSuchFileException e) {
      return Optional.empty();
    } catch (dev.gq.host.fs.RegularFiles.NotRegularFileException e) {
      throw new ApiException(path + " is not a regular file (it is " + e.kind()
          + "); gq reads a job's log only from the file its output went to: remove it or put the log back");
    }
  }

  @Override
  public QueueState queueState() throws ApiException {
    // asked after every submit: the ledger alone, not a whole view with its plan
    Ledger l = await(AskPattern.<Scheduler.Command, Ledger>ask(scheduler, Scheduler.GetLedger::new, TIMEOUT, system.scheduler()));
    return new QueueState(l.paused(), l.holds(), l.settings().maxRunning());
  }

  @Override
  public Map<Long, WaitReason> waitReasons() throws ApiException {
    return view().waitReasons();
  }

  @Override
  public GpuReport gpus() throws ApiException {
    SchedulerView v = view();
    return new GpuReport(v.gpus(), v.probe(), v.fake(), v.gpuError());
  }

  @Override
  public List<CancelOutcome> cancel(List<Long> ids) throws ApiException {
    List<dev.gq.core.schedule.CancelResult> rs = ask(new Request.Cancel(ids));
    return rs.stream().map(r -> new CancelOutcome(r.id(), CancelOutcome.Kind.valueOf(r.kind()), r.message())).toList();
  }

  @Override
  public DaemonInfo daemonInfo() throws ApiException {
    SchedulerView v = view();
    int running = 0, waiting = 0;
    for (Job j : v.ledger().live().values()) {
      if (j.state() == JobState.WAITING) waiting++;
      else running++;
    }
    return new DaemonInfo(ProcessHandle.current().pid(), dev.gq.cli.Gq.VERSION, Protocol.VERSION, dataDir, v.probe(),
        v.fake(), v.gpuError(), Math.max(v.gpuCount(), 0), running, waiting, warning.get());
  }

  @Override
  public String pause(String group) throws ApiException {
    return ask(new Request.Pause(group));
  }

  @Override
  public String limitGroup(String group, Integer maxRunning) throws ApiException {
    return ask(new Request.LimitGroup(group, maxRunning));
  }

  @Override
  public String changeJob(long id, dev.gq.core.ledger.JobChanges.Change change) throws ApiException {
    return ask(new Request.ChangeJob(id, change));
  }

  @Override
  public String toFront(long id) throws ApiException {
    return ask(new Request.ToFront(id));
  }

  @Override
  public String holdJobs(List<Long> ids, boolean held) throws ApiException {
    return ask(new Request.HoldJobs(ids, held));
  }

  @Override
  public String drainGpu(String uuid, int index, String reason) throws ApiException {
    return ask(new Request.DrainGpu(uuid, index, reason));
  }

  @Override
  public String resume(String group) throws ApiException {
    return ask(new Request.Resume(group));
  }

  @Override
  public List<StoredEvent> events(long afterSeq, Long jobId, Instant since, int limit) throws ApiException {
    try {
      return journal.read(afterSeq, jobId, since, limit).stream().map(DaemonApi::stored).toList();
    } catch (SQLException e) {
      throw new ApiException("cannot read the event journal: " + e.getMessage() + "; see the daemon log");
    }
  }

  @Override
  public long eventsTail(Long jobId, Instant since, int count) throws ApiException {
    try {
      return journal.tailStart(jobId, since, count);
    } catch (SQLException e) {
      throw new ApiException("cannot read the event journal: " + e.getMessage() + "; see the daemon log");
    }
  }

  @Override
  public List<GroupSummary> groups() throws ApiException {
    return groupsOf(null);
  }

  @Override
  public Optional<GroupSummary> group(String name) throws ApiException {
    return groupsOf(name).stream().findFirst();
  }

  private List<GroupSummary> groupsOf(String only) throws ApiException {
    var ledger = synced().ledger();
    Map<String, String> holds = ledger.holds();
    try {
      return history.groups(only, holds, ledger.autoHeld()::contains, ledger.settings().maxRunning());
    } catch (SQLException e) {
      throw historyFailed(e);
    }
  }

  @Override
  public Map<String, String> holds() throws ApiException {
    return view().ledger().holds();
  }

  @Override
  public Optional<Job> newestAttempt(long id) throws ApiException {
    synced();
    try {
      var fact = readSide.lineages(List.of(id)).get(id);
      return fact == null ? Optional.empty() : job(fact.newest());
    } catch (SQLException e) {
      throw historyFailed(e);
    }
  }

  @Override
  public long count(JobQuery q) throws ApiException {
    synced();
    try {
      return readSide.count(q);
    } catch (SQLException e) {
      throw historyFailed(e);
    }
  }

  @Override
  public List<Long> remove(List<Long> ids) throws ApiException {
    synced();
    try {
      List<Long> removed = history.remove(ids);
      forget(removed);
      return removed;
    } catch (SQLException e) {
      throw historyFailed(e);
    }
  }

  @Override
  public int clean(Instant endedBefore, java.util.Set<JobState> states) throws ApiException {
    var ledger = synced().ledger();
    try {
      List<Long> holders = SweepRequests.endedKeyHolders(ledger);
      int n = history.clean(endedBefore, states);
      if (n > 0) forget(sweeps.gone(holders));
      return n;
    } catch (SQLException e) {
      throw historyFailed(e);
    }
  }

  private static ApiException historyFailed(SQLException e) {
    return new ApiException("cannot read the job history: " + e.getMessage() + "; see the daemon log");
  }

  private static StoredEvent stored(JournalEntry e) {
    return new StoredEvent(e.seq(), e.time(), e.type(), e.jobId(), e.fields());
  }

  @Override
  public boolean firstNotice(String note) {
    return notices.first(note);
  }

  @Override
  public void shutdown() {
    shutdown.run();
  }

  private SchedulerView view() throws ApiException {
    return await(AskPattern.<Scheduler.Command, SchedulerView>ask(scheduler, Scheduler.GetView::new, TIMEOUT, system.scheduler()));
  }

  private SchedulerView synced() throws ApiException {
    SchedulerView v = view();
    await(AskPattern.<Projector.Command, org.apache.pekko.Done>ask(projector, r -> new Projector.Sync(v.seqNr(), r), TIMEOUT,
        system.scheduler()));
    return v;
  }

  private static <T> T await(CompletionStage<T> stage) throws ApiException {
    try {
      return stage.toCompletableFuture().get(TIMEOUT.toMillis() + 1000, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof StatusReply.ErrorMessage m) throw new ApiException(m.getMessage());
      throw new ApiException("the daemon could not answer: " + c.getMessage() + "; see the daemon log");
    } catch (TimeoutException e) {
      throw new ApiException("the daemon did not answer within " + TIMEOUT.toSeconds() + " s; see the daemon log");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiException("interrupted");
    }
  }
}
