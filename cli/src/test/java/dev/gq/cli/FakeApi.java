package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.api.Notices;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.Attempts;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.job.WaitReason.GpuHolder;
import dev.gq.core.report.GpuSpan;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageRows;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;

/** The daemon in memory: holds jobs, records every call, answers like the real scheduler would. */
final class FakeApi implements GqApi {
  final Map<Long, Job> jobs = new ConcurrentSkipListMap<>();
  /** Jobs whose history record cannot be read: jobPage skips and names them, jobs() fails. */
  final java.util.Set<Long> unreadable = new java.util.concurrent.ConcurrentSkipListSet<>();
  final List<JobSpec> submitted = new ArrayList<>();
  /** Every query asked, from whichever thread (a listing reads its next page on one of its own). */
  final List<JobQuery> queries = Collections.synchronizedList(new ArrayList<>());
  final List<List<Long>> cancels = new ArrayList<>();
  final List<dev.gq.core.schedule.Preemptions.PreemptAsk> preempts = new ArrayList<>();
  final List<String> resumes = new ArrayList<>();
  /** Why each waiting job waits. */
  final Map<Long, WaitReason> waits = new HashMap<>();
  final Deque<Job> jobReplies = new ConcurrentLinkedDeque<>();
  SubmitResult nextSubmit;
  ApiException refuseWith;
  Supplier<RuntimeException> crashWith;
  GpuReport gpus = new GpuReport(List.of(), "NVML 550.54", false, null);
  DaemonInfo info = new DaemonInfo(4242, "0.1.0", 1, "/data/gq", "NVML 550.54", false, null, 2, 1, 3, null);
  final List<StoredEvent> events = new CopyOnWriteArrayList<>();
  final List<String> eventCalls = new CopyOnWriteArrayList<>();
  int waitReasonCalls;
  /** The estimate each running job has; {@link #progressCalls} records every request for them. */
  final Map<Long, dev.gq.core.progress.Estimate> estimates = new HashMap<>();
  final List<List<Long>> progressCalls = new CopyOnWriteArrayList<>();
  volatile int jobCalls;
  boolean shutdown;
  long nextId = 1;
  final Notices notices = new Notices(1000);

  @Override
  public boolean firstNotice(String note) {
    return notices.first(note);
  }

  void add(Job job) {
    jobs.put(job.id(), job);
    nextId = Math.max(nextId, job.id() + 1);
  }

  private void fail() throws ApiException {
    if (crashWith != null) throw crashWith.get();
    if (refuseWith != null) throw refuseWith;
  }

  /** Each group's cap, as submits with --max-running set it. */
  final Map<String, Integer> caps = new java.util.HashMap<>();

  @Override public SubmitResult submit(JobSpec spec, Integer maxRunning) throws ApiException {
    fail();
    submitted.add(spec);
    if (nextSubmit != null) return nextSubmit;
    long id = nextId++;
    jobs.put(id, Jobs.job(id, JobState.WAITING, spec));
    return new SubmitResult(id, false, JobState.WAITING, null, told(spec.group(), cap(spec.group(), maxRunning)));
  }

  /** What the daemon's answer says of a job of {@code group}: from {@link #queue}, as the ledger would. */
  private dev.gq.core.ledger.Queueing told(String group, String capLine) {
    return new dev.gq.core.ledger.Queueing(queue.queueHeld(), queue.holdOf(group), capLine);
  }

  private String cap(String group, Integer maxRunning) {
    if (maxRunning == null || maxRunning.equals(caps.get(group))) return null;
    caps.put(group, maxRunning);
    return "Group " + group + ": at most " + maxRunning + " of its jobs at once.";
  }

  @Override public List<Job> jobs(JobQuery q) throws ApiException {
    fail();
    queries.add(q);
    beforeCall();
    List<Job> out = matching(q).sorted(Comparator.comparingLong(Job::id).reversed()).toList();
    return q.limit() > 0 && out.size() > q.limit() ? out.subList(0, q.limit()) : out;
  }

  @Override public dev.gq.core.job.JobPage jobPage(JobQuery q) throws ApiException {
    fail();
    queries.add(q);
    beforeCall();
    List<Job> rows = matching(q).sorted(Comparator.comparingLong(Job::id).reversed()).toList();
    if (q.limit() > 0 && rows.size() > q.limit()) rows = rows.subList(0, q.limit());
    return new dev.gq.core.job.JobPage(rows.stream().filter(j -> !unreadable.contains(j.id())).toList(),
        rows.stream().map(Job::id).filter(unreadable::contains).toList());
  }

  @Override public long count(JobQuery q) throws ApiException {
    fail();
    queries.add(q);
    beforeCall();
    return matching(q).count();
  }

  private java.util.stream.Stream<Job> matching(JobQuery q) {
    return jobs.values().stream()
        .filter(j -> q.ranges().isEmpty() || q.ranges().stream().anyMatch(r -> j.id() >= r[0] && j.id() <= r[1]))
        .filter(j -> q.states().isEmpty() || q.states().contains(j.state()))
        .filter(j -> q.group() == null || q.group().equals(j.spec().group()))
        .filter(j -> q.belowId() <= 0 || j.id() < q.belowId())
        .filter(j -> q.endedBefore() == null || (j.endTime() != null && j.endTime().isBefore(q.endedBefore())))
        .filter(j -> !q.latestOnly() || !Attempts.replaced(j, jobs.values()));
  }

  @Override public Optional<Job> newestAttempt(long id) throws ApiException {
    fail();
    beforeCall();
    Job j = jobs.get(id);
    if (j == null) return Optional.empty();
    return Attempts.newest(j.lineage(), jobs.values());
  }

  /** Steps run one per read call (job, jobs, count, newestAttempt), to change jobs while a command polls. */
  final Deque<Runnable> steps = new ConcurrentLinkedDeque<>();

  private void beforeCall() {
    Runnable r = steps.poll();
    if (r != null) r.run();
  }


  @Override public Optional<Job> job(long id) throws ApiException {
    fail();
    jobCalls++;
    beforeCall();
    if (!jobReplies.isEmpty()) return Optional.of(jobReplies.poll());
    return Optional.ofNullable(jobs.get(id));
  }

  /** As the daemon opens a log, less its guard against a name swapped between the check and the open. */
  @Override public Optional<java.nio.channels.FileChannel> openLog(java.nio.file.Path path) throws ApiException, java.io.IOException {
    if (!java.nio.file.Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return Optional.empty();
    if (!java.nio.file.Files.isRegularFile(path, java.nio.file.LinkOption.NOFOLLOW_LINKS))
      throw new ApiException(path + " is not a regular file; remove it");
    return Optional.of(java.nio.channels.FileChannel.open(path, java.nio.file.StandardOpenOption.READ, java.nio.file.LinkOption.NOFOLLOW_LINKS));
  }

  /** The queue's hold and the groups' holds as queueState() reports them. */
  QueueState queue = new QueueState(false, Map.of());

  /** When set, queueState() alone is refused with it. */
  ApiException queueRefusal;

  @Override public QueueState queueState() throws ApiException {
    fail();
    if (queueRefusal != null) throw queueRefusal;
    return queue;
  }

  /**
   * What {@code gq report} is handed: the rows, the GPUs seen now, and the first use the daemon
   * counts (unless given: the earliest submission or span start, as the real one counts it).
   */
  record UsageData(List<JobSpan> jobs, List<GpuSpan> spans, List<JobSpan.GpuRef> gpus, Instant firstUse) {
    UsageData(List<JobSpan> jobs, List<GpuSpan> spans, List<JobSpan.GpuRef> gpus) {
      this(jobs, spans, gpus, Stream.concat(jobs.stream().map(JobSpan::submit).filter(Objects::nonNull),
          spans.stream().map(GpuSpan::start)).min(Comparator.naturalOrder()).orElse(null));
    }
  }

  UsageData usage = new UsageData(List.of(), List.of(), List.of());
  /** The periods {@code gq report} asked for, and whether it kept the rows. */
  final List<Instant[]> usageCalls = new ArrayList<>();
  final List<Boolean> usageHeld = new ArrayList<>();

  @Override public void usage(Instant from, Instant to, boolean held, Function<UsageFacts, UsageRows> reader) throws ApiException {
    fail();
    usageCalls.add(new Instant[] {from, to});
    usageHeld.add(held);
    UsageRows rows = reader.apply(new UsageFacts(usage.firstUse(), usage.gpus()));
    usage.spans().stream().sorted(Comparator.comparing(GpuSpan::start)).forEach(rows::span);
    usage.jobs().forEach(rows::job);
  }

  /** The daemon's clock; null: the real one. */
  java.time.Instant now;
  /** The idle running jobs, each with the moment its GPUs last did something. */
  final Map<Long, java.time.Instant> idle = new HashMap<>();

  @Override public Map<Long, java.time.Instant> idleJobs() {
    return idle;
  }

  @Override public java.time.Instant now() {
    return now != null ? now : java.time.Instant.now();
  }

  @Override public Map<Long, dev.gq.core.progress.Estimate> progress(List<Long> ids) throws ApiException {
    fail();
    progressCalls.add(List.copyOf(ids));
    Map<Long, dev.gq.core.progress.Estimate> out = new HashMap<>();
    for (long id : ids) {
      Job j = jobs.get(id);
      if (j != null && j.state() == JobState.RUNNING && estimates.containsKey(id)) out.put(id, estimates.get(id));
    }
    return out;
  }

  /** Every call for some jobs' wait reasons, with the ids it asked for. */
  final List<List<Long>> waitAsks = new CopyOnWriteArrayList<>();
  int liveCalls;

  /** The live jobs as the scheduler holds them: by id, without their commands and log paths. */
  @Override public Collection<Job> liveJobs() throws ApiException {
    fail();
    liveCalls++;
    return jobs.values().stream().filter(j -> !j.state().terminal()).map(Job::withoutCommand).toList();
  }

  @Override public Map<Long, WaitReason> waitReasons(Collection<Long> ids) throws ApiException {
    fail();
    waitAsks.add(List.copyOf(ids));
    Map<Long, WaitReason> out = new HashMap<>();
    for (long id : ids) {
      WaitReason why = waits.get(id);
      if (why != null) out.put(id, why);
    }
    return out;
  }

  @Override public Map<Long, WaitReason> waitReasons() throws ApiException {
    fail();
    waitReasonCalls++;
    return new HashMap<>(waits);
  }

  @Override public GpuReport gpus() throws ApiException {
    fail();
    return gpus;
  }

  @Override public List<String> preempt(dev.gq.core.schedule.Preemptions.PreemptAsk ask) throws ApiException {
    preempts.add(ask);
    return ask.ids().stream().map(id -> "job " + id + ": preempting").toList();
  }

  /** Jobs resume skips, with the reason the scheduler gives. */
  final Map<Long, String> unresumable = new HashMap<>();

  @Override public ResumeReport resume(List<Long> ids, String from) throws ApiException {
    resumes.add(ids + " from " + from);
    List<RetrySkip> skips = ids.stream().filter(unresumable::containsKey).map(id -> new RetrySkip(id, unresumable.get(id))).toList();
    List<Retried> r = ids.stream().filter(id -> !unresumable.containsKey(id)).map(id -> new Retried(id, id + 100)).toList();
    Map<Long, String> seen = new java.util.HashMap<>();
    if (from != null) r.forEach(x -> seen.put(x.newId(), from));
    Map<Long, String> under = new java.util.HashMap<>();
    r.forEach(x -> under.put(x.newId(), "/w"));
    return new ResumeReport(new RetryReport(r, skips, List.of()), seen, under);
  }

  @Override public List<CancelOutcome> cancel(List<Long> ids) throws ApiException {
    fail();
    cancels.add(List.copyOf(ids));
    List<CancelOutcome> out = new ArrayList<>();
    for (long id : ids) out.add(cancelOne(id));
    return out;
  }

  private CancelOutcome cancelOne(long id) {
    Job j = jobs.get(id);
    if (j == null) return new CancelOutcome(id, CancelOutcome.Kind.UNKNOWN, "job " + id + " does not exist");
    if (j.state().terminal()) {
      return new CancelOutcome(id, CancelOutcome.Kind.ALREADY_ENDED, "job " + id + " is already " + j.state());
    }
    return switch (j.state()) {
      case WAITING -> new CancelOutcome(id, CancelOutcome.Kind.CANCELLED, null);
      case CANCELLING -> new CancelOutcome(id, CancelOutcome.Kind.ALREADY_CANCELLING, null);
      default -> new CancelOutcome(id, CancelOutcome.Kind.STOPPING, null);
    };
  }

  /** What `gq daemon status` shows about each part of the daemon. */
  List<String> parts = List.of();

  @Override public List<String> partLines() {
    return parts;
  }

  @Override public DaemonInfo daemonInfo() throws ApiException {
    fail();
    return info;
  }

  /** The bookings {@link #bookings} lists; {@link #book} adds to them, {@link #cancelBooking} removes one. */
  final List<BookingLine> booked = new ArrayList<>();
  /** What {@link #book} was last asked: count, GPUs, start, end. */
  List<Object> bookAsked;

  @Override public BookingLine book(int count, List<String> gpus, Instant start, Instant end) throws ApiException {
    bookAsked = List.of(count, gpus, start, end);
    List<Integer> idx = new ArrayList<>();
    for (int i = 0; i < count; i++) idx.add(i);
    BookingLine b = new BookingLine("0123abcd", "alice", idx, idx.stream().map(i -> "GPU-" + i).toList(), start, end);
    booked.add(b);
    return b;
  }

  @Override public String drainGpu(String uuid, int index, String reason) {
    return "GPU " + index + (reason == null ? " resumed." : " drained.");
  }

  @Override public String drainGpuForEveryone(String uuid, int index, String reason) {
    return "GPU " + index + (reason == null ? " resumed for every user" : " drained for every user: " + reason);
  }

  @Override public List<BookingLine> bookings() {
    return List.copyOf(booked);
  }

  @Override public String cancelBooking(String id) throws ApiException {
    if (!booked.removeIf(b -> b.id().equals(id))) throw new ApiException("no booking " + id + "; list them with gq book --list");
    return "Cancelled booking " + id + ".";
  }

  /** Who runs each pid a GPU lists, as {@link #processes} answers. */
  final Map<Long, ProcessView> processes = new HashMap<>();

  @Override public Map<Long, ProcessView> processes(java.util.Collection<Long> pids) {
    Map<Long, ProcessView> out = new HashMap<>();
    for (long pid : pids) if (processes.containsKey(pid)) out.put(pid, processes.get(pid));
    return out;
  }

  /** What {@link #who} answers (null: a daemon that does not say). */
  WhoReport who;

  @Override public WhoReport who() {
    return who;
  }

  /** What {@link #journalProblem} says (null: the journal takes writes). */
  String journal;

  @Override public String journalProblem() {
    return journal;
  }

  @Override public void shutdown() throws ApiException {
    fail();
    shutdown = true;
  }

  @Override public List<StoredEvent> events(long afterSeq, Long jobId, Instant since, int limit) throws ApiException {
    fail();
    eventCalls.add("events after " + afterSeq + " job " + jobId + " since " + since + " limit " + limit);
    return matching(jobId, since).filter(e -> e.seq() > afterSeq).limit(limit).toList();
  }

  @Override public long eventsTail(Long jobId, Instant since, int count) throws ApiException {
    fail();
    eventCalls.add("tail job " + jobId + " since " + since + " count " + count);
    List<StoredEvent> all = matching(jobId, since).toList();
    return all.size() <= count ? 0 : all.get(all.size() - count - 1).seq();
  }

  private java.util.stream.Stream<StoredEvent> matching(Long jobId, Instant since) {
    return events.stream()
        .filter(e -> jobId == null || jobId.equals(e.jobId()))
        .filter(e -> since == null || !e.time().isBefore(since));
  }

  /** The daemon's start-up settings; null: it cannot tell. */
  Map<String, String> startSettings;

  @Override public Map<String, String> startSettings() {
    return startSettings;
  }

  /** Jobs moved to the front, in order. */
  final java.util.List<Long> fronted = new java.util.ArrayList<>();

  @Override public String toFront(long id) throws ApiException {
    fail();
    fronted.add(id);
    return "Job " + id + " is first in the queue (priority 1).";
  }

  /** Hold/release requests for the queue or a group as "hold:GROUP" / "release:null". */
  final java.util.List<String> queueHolds = new java.util.ArrayList<>();

  @Override public String holdQueue(String group) throws ApiException {
    fail();
    queueHolds.add("hold:" + group);
    return group == null ? "Queue held." : "Group " + group + " is held.";
  }

  @Override public String releaseQueue(String group) throws ApiException {
    fail();
    queueHolds.add("release:" + group);
    return group == null ? "Released the hold on the queue." : "Released the hold on group " + group + ".";
  }

  @Override public String holdJobs(List<Long> ids, boolean held) throws ApiException {
    fail();
    queueHolds.add((held ? "hold:" : "release:") + ids);
    return (held ? "Held " : "Released ") + ids + ".";
  }


  /** Batch submits, retries, removals and cleans as the CLI sent them. */
  final List<List<BatchLine>> batches = new ArrayList<>();
  final List<String> retries = new ArrayList<>();
  final List<List<Long>> removals = new ArrayList<>();
  final List<String> cleans = new ArrayList<>();
  RetryReport nextRetry = new RetryReport(List.of(), List.of(), List.of());
  List<GroupSummary> groupList = List.of();
  List<BatchOutcome> nextBatch;

  @Override public List<BatchOutcome> submitBatch(List<BatchLine> lines, String group, Integer maxRunning) throws ApiException {
    fail();
    batches.add(List.copyOf(lines));
    if (nextBatch != null) return nextBatch;
    List<BatchOutcome> out = new ArrayList<>();
    String capLine = cap(group, maxRunning);
    for (BatchLine l : lines) {
      long id = nextId++;
      jobs.put(id, Jobs.job(id, JobState.WAITING, l.spec()));
      out.add(new BatchOutcome(l.line(), id, false, JobState.WAITING, null, told(l.spec().group(), capLine)));
    }
    return out;
  }

  @Override public RetryReport retry(List<Long> ids, java.util.Set<JobState> states) throws ApiException {
    fail();
    retries.add("retry " + ids + " " + states);
    return nextRetry;
  }

  @Override public RetryReport retry(List<Long> ids, java.util.Set<JobState> states, String group) throws ApiException {
    fail();
    retries.add("retry " + ids + " " + states + (group == null ? "" : " --group " + group));
    return nextRetry;
  }

  @Override public RetryReport recover() throws ApiException {
    fail();
    retries.add("recover");
    return nextRetry;
  }

  @Override public List<GroupSummary> groups() throws ApiException {
    fail();
    return groupList;
  }

  @Override public List<Long> remove(List<Long> ids) throws ApiException {
    fail();
    removals.add(List.copyOf(ids));
    ids.forEach(jobs::remove);
    return List.copyOf(ids);
  }

  @Override public int clean(Instant endedBefore, java.util.Set<JobState> states) throws ApiException {
    fail();
    cleans.add("clean before " + endedBefore + " " + states);
    return 0;
  }

  /** What keeps GPU {@code index} from a waiting job, in {@code state}: held by {@code job} (null: none). */
  static GpuHolder holder(int index, GpuState state, Long job) {
    return new GpuHolder(index, state, job, List.of(), null, List.of());
  }
}
