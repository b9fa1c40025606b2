package dev.gq.core.notify;

import dev.gq.core.gpu.MemoryText;
import dev.gq.core.health.Unwell;
import dev.gq.core.job.Durations;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides the messages one stored event calls for, from the event, what the history knows and the
 * notifier's memory, one message per outcome: a job's end (kind {@code failed} for FAILED, TIMEOUT
 * and INTERRUPTED, else {@code end}; a job in a group that FAILED within the fail-fast window is
 * marked {@link Notice#byGroup}, since its group's hold or end tells it); a group left with no live
 * job, once per sweep however many of its jobs ended in the same moment ("xsum: 18 DONE, 2 FAILED in
 * 6h12m"); a group held by fail-fast; the queue drained (nothing live after jobs ended, once until
 * something is queued again), unless it would say no more than was said: the one job ended since the
 * queue last ran dry ran less than {@link #LONE_JOB}, or every job ended since then is in one group
 * whose message or fail-fast hold told them. A group's message and the drained queue are decided at
 * the last event of the write (after the retries and fail-fast holds its ends caused), from the facts
 * right after that event ({@link NoticeFacts}): both from the same events, so that the same events in
 * the same writes always give the same messages, whenever the history took them. Which targets get
 * each message is {@link Routing}'s. Pure.
 */
public final class NoticeRules {
  /** The messages and the memory to store with the cursor after them. */
  public record Outcome(List<Notice> notices, NotifierMemory memory) {}

  /** A lone job that ran less than this (or never started) does not make the queue's drained message. */
  public static final Duration LONE_JOB = Duration.ofMinutes(1);

  private NoticeRules() {}

  /**
   * The stored events whose content the rules read. Any other event is decided by its type alone
   * ({@link #byType}), so the notifier need not read it back from its stored form: most of a busy
   * queue's events (reservations, launches, submits) call for no message.
   */
  private static final Set<Class<? extends LedgerEvent>> READ = Set.of(LedgerEvent.GroupHeld.class,
      LedgerEvent.GroupReleased.class, LedgerEvent.JobExited.class, LedgerEvent.JobTimedOut.class,
      LedgerEvent.JobLaunchFailed.class, LedgerEvent.JobInterrupted.class, LedgerEvent.JobCancelled.class,
      LedgerEvent.JobOverShare.class, LedgerEvent.GpuDrained.class, LedgerEvent.JobIdleNoted.class);

  /** Whether deciding an event of {@code type} reads its content; if not, {@link #byType} decides it. */
  public static boolean readsContent(Class<?> type) {
    return READ.contains(type);
  }

  /** The outcome of an event of {@code type}, one whose content the rules do not read ({@link #readsContent}). */
  public static Outcome byType(long seq, Class<?> type, NoticeFacts facts, NotifierMemory memory) {
    if (readsContent(type)) throw new IllegalArgumentException(type.getSimpleName() + " is decided from its content");
    boolean queued = type == LedgerEvent.JobSubmitted.class || type == LedgerEvent.JobAdopted.class;
    return atWriteEnd(seq, facts, new Outcome(List.of(), queued ? memory.queued() : memory));
  }

  public static Outcome decide(long seq, LedgerEvent event, NoticeFacts facts, NotifierMemory memory) {
    if (!readsContent(event.getClass())) return byType(seq, event.getClass(), facts, memory);
    Outcome o = switch (event) {
      case LedgerEvent.GroupHeld e when e.automatic() -> new Outcome(List.of(held(seq, e)), memory.held(e.group(), true));
      case LedgerEvent.GroupReleased e -> new Outcome(List.of(), memory.held(e.group(), false));
      case LedgerEvent.JobExited e -> ended(seq, e.jobId(), facts, memory);
      case LedgerEvent.JobTimedOut e -> ended(seq, e.jobId(), facts, memory);
      case LedgerEvent.JobLaunchFailed e -> ended(seq, e.jobId(), facts, memory);
      case LedgerEvent.JobInterrupted e -> ended(seq, e.jobId(), facts, memory);
      case LedgerEvent.JobCancelled e -> ended(seq, e.jobId(), facts, memory);
      case LedgerEvent.JobOverShare e -> new Outcome(List.of(over(seq, e, facts)), memory);
      case LedgerEvent.GpuDrained e when Unwell.byHealth(e.reason()) -> new Outcome(List.of(unhealthy(seq, e)), memory);
      case LedgerEvent.JobIdleNoted e -> new Outcome(idle(seq, e, facts), memory);
      default -> new Outcome(List.of(), memory);
    };
    return atWriteEnd(seq, facts, o);
  }

  /** At the write's last event: the groups' messages due, then the drained queue, from the facts right after it. */
  private static Outcome atWriteEnd(long seq, NoticeFacts facts, Outcome o) {
    return facts.endsWrite(seq) ? drained(seq, facts, groups(seq, facts, o)) : o;
  }

  private static Outcome ended(long seq, long id, NoticeFacts facts, NotifierMemory memory) {
    var job = facts.job(id);
    if (job.isEmpty() || !job.get().state().terminal()) return new Outcome(List.of(), memory);
    JobFacts j = job.get();
    List<Notice> out = new ArrayList<>();
    out.add(jobNotice(seq, j, byGroup(j, facts.failFastWithin())));
    NotifierMemory m = memory.ended(j.state().name(), j.group(), j.runtime());
    // the last of the group's jobs to end in this write: its group's message is decided at the write's end
    if (j.group() != null) m = m.due(j.group(), j.id());
    return new Outcome(out, m);
  }

  /** Whether {@code g} has no live job and ended jobs its last message did not count. */
  private static boolean finished(Optional<GroupFacts> g, NotifierMemory m, String group) {
    return g.isPresent() && g.get().live() == 0 && g.get().ended() > 0
        && !Integer.valueOf(g.get().ended()).equals(m.announced().get(group));
  }

  /**
   * The messages of the groups some of whose jobs ended in the write, for those left with no live
   * job right after its last event {@code seq} (after any retry or fail-fast hold of the same write),
   * except for a group fail-fast held since its last release.
   */
  private static Outcome groups(long seq, NoticeFacts facts, Outcome o) {
    NotifierMemory m = o.memory();
    if (m.due().isEmpty()) return o;
    List<Notice> out = new ArrayList<>(o.notices());
    for (var due : m.due().entrySet()) {
      String group = due.getKey();
      var g = facts.group(group, seq);
      if (finished(g, m, group)) {
        // a group fail-fast held has had its outcome told by the hold: its end is not told again until a release
        if (!m.held().contains(group))
          out.add(groupNotice(seq, facts.times(g.get(), seq), facts.job(due.getValue()).map(NoticeRules::choice).orElse(null)));
        m = m.announce(group, g.get().ended());
      } else {
        m = m.notDue(group); // still live, or live again (a retry landed in it): its next end will say it
      }
    }
    return new Outcome(out, m);
  }

  /**
   * The queue ran dry: decided at the write's last event {@code seq}, from the facts right after it
   * (so every end of the write that emptied the queue is counted, and the messages of the groups it
   * ended were decided just before), once until something is queued again, and said only when it
   * tells more than the messages before it.
   */
  private static Outcome drained(long seq, NoticeFacts facts, Outcome o) {
    NotifierMemory m = o.memory();
    if (m.drained() || m.endedSinceDrain().isEmpty() || facts.liveJobs(seq) != 0) return o;
    boolean loneQuick = m.endedCount() == 1 && m.longest().compareTo(LONE_JOB) < 0;
    // every job ended since the queue last ran dry is in one group, whose message or fail-fast hold told them
    boolean oneSweep = m.sweep() != null && (m.held().contains(m.sweep()) || facts.group(m.sweep(), seq)
        .map(g -> Integer.valueOf(g.ended()).equals(m.announced().get(m.sweep()))).orElse(false));
    List<Notice> out = o.notices();
    if (!loneQuick && !oneSweep) {
      out = new ArrayList<>(out);
      out.add(drainedNotice(seq, m.endedSinceDrain()));
    }
    return new Outcome(out, m.drainedNow());
  }

  /** A FAILED job in a group, ended within the fail-fast window: its group's hold or end tells it. */
  private static boolean byGroup(JobFacts j, Duration failFastWithin) {
    Duration ran = j.runtime();
    return j.group() != null && j.state() == JobState.FAILED && failFastWithin.isPositive()
        && (ran == null || ran.compareTo(failFastWithin) < 0);
  }

  static Notice jobNotice(long seq, JobFacts j, boolean byGroup) {
    boolean failed = j.state() == JobState.FAILED || j.state() == JobState.TIMEOUT || j.state() == JobState.INTERRUPTED;
    StringBuilder text = new StringBuilder("job ").append(j.id());
    String about = j.name() == null ? "" : j.name();
    if (j.group() != null) about += (about.isEmpty() ? "" : ", ") + "group " + j.group();
    if (!about.isEmpty()) text.append(" (").append(about).append(')');
    text.append(' ').append(j.state());
    Duration ran = j.runtime();
    if (ran != null) text.append(" after ").append(Durations.format(ran.withNanos(0)));
    if (failed && j.reason() != null && !j.reason().isBlank()) text.append(": ").append(j.reason());
    return new Notice(seq, failed ? NoticeKind.FAILED : NoticeKind.END, j.id(), j.group(), j.state().name(),
        "gq: job " + j.id() + " " + j.state(), text.toString(), choice(j), ran, byGroup);
  }

  static Notice groupNotice(long seq, GroupFacts g, Set<NoticeKind> choice) {
    String text = g.group() + ": " + counts(g.counts());
    if (g.first() != null && g.lastEnd() != null && !g.lastEnd().isBefore(g.first()))
      text += " in " + Durations.format(Duration.between(g.first(), g.lastEnd()).withNanos(0));
    return new Notice(seq, NoticeKind.GROUP, null, g.group(), null, "gq: group " + g.group() + " finished", text, choice, null);
  }

  /** "job 4 (eval) uses 29.3 GiB of GPU 0, more than the 18.6 GiB it declared (--vram): ..." */
  static Notice over(long seq, LedgerEvent.JobOverShare e, NoticeFacts facts) {
    var j = facts.job(e.jobId());
    String name = j.map(JobFacts::name).orElse(null);
    String group = j.map(JobFacts::group).orElse(null);
    String text = "job " + e.jobId() + (name == null ? "" : " (" + name + ")") + " uses "
        + MemoryText.words(e.usedMiB()) + " of GPU " + e.index() + ", more than the "
        + MemoryText.words(e.declaredMiB()) + " it declared: no more jobs go on that GPU while it does;"
        + " gq does not stop it. Hold it to its share (GQ_VRAM) or ask for more --vram next time";
    return new Notice(seq, NoticeKind.OVER_MEMORY, e.jobId(), group, null, "gq: job " + e.jobId() + " over its GPU share", text,
        j.map(NoticeRules::choice).orElse(null), null);
  }

  private static Notice held(long seq, LedgerEvent.GroupHeld e) {
    String text = "group " + e.group() + " held by fail-fast: " + e.reason() + "; 'gq release --group " + e.group()
        + "' or 'gq retry --group " + e.group() + "' when fixed";
    return new Notice(seq, NoticeKind.HELD, null, e.group(), null, "gq: group " + e.group() + " held", text, null, null);
  }

  private static Notice unhealthy(long seq, LedgerEvent.GpuDrained e) {
    String text = "GPU " + e.uuid() + " is unwell (" + Unwell.problem(e.reason()) + "): drained, no new job goes on it"
        + " and a job running there keeps running; 'gq gpu resume' gives it back once it is fixed";
    return new Notice(seq, NoticeKind.UNHEALTHY, null, null, null, "gq: GPU unwell", text, null, null);
  }

  /** The job's idle message, unless it ended since (the history knows it ended: nothing to tell). */
  private static List<Notice> idle(long seq, LedgerEvent.JobIdleNoted e, NoticeFacts facts) {
    var job = facts.job(e.jobId());
    if (job.isPresent() && job.get().state().terminal()) return List.of();
    StringBuilder text = new StringBuilder("job ").append(e.jobId());
    String name = job.map(JobFacts::name).orElse(null);
    String group = job.map(JobFacts::group).orElse(null);
    String about = name == null ? "" : name;
    if (group != null) about += (about.isEmpty() ? "" : ", ") + "group " + group;
    if (!about.isEmpty()) text.append(" (").append(about).append(')');
    text.append(" is idle: its GPUs have shown 0% utilisation for ")
        .append(Durations.format(Duration.between(e.since(), e.at()).withNanos(0)))
        .append("; gq does not stop it ('gq cancel ").append(e.jobId()).append("' frees them)");
    return List.of(new Notice(seq, NoticeKind.IDLE, e.jobId(), group, null, "gq: job " + e.jobId() + " idle",
        text.toString(), job.map(NoticeRules::choice).orElse(null), null));
  }

  private static Notice drainedNotice(long seq, Map<String, Integer> ended) {
    Map<JobState, Integer> byState = new EnumMap<>(JobState.class);
    ended.forEach((s, n) -> byState.put(JobState.valueOf(s), n));
    String text = "queue drained: " + (byState.isEmpty() ? "nothing waits or runs" : counts(byState));
    return new Notice(seq, NoticeKind.DRAINED, null, null, null, "gq: queue drained", text, null, null);
  }

  /** "18 DONE, 2 FAILED", in the states' order, zeros left out. */
  static String counts(Map<JobState, Integer> counts) {
    StringBuilder sb = new StringBuilder();
    for (JobState s : JobState.values()) {
      Integer n = counts.get(s);
      if (n != null && n > 0) sb.append(sb.isEmpty() ? "" : ", ").append(n).append(' ').append(s);
    }
    return sb.toString();
  }

  /** What the job asked for with {@code --notify} (its stored GQ_NOTIFY); null when it asked nothing or nonsense. */
  static Set<NoticeKind> choice(JobFacts j) {
    if (j.asked() == null) return null;
    if (j.asked().isEmpty()) return NoticeKind.BARE;
    try {
      return NoticeKind.parse(j.asked());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
