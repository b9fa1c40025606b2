package dev.gq.core.notify;

import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the events stored after the one being decided, up to the history's view, did to the queue:
 * how many jobs they put in it ({@code started}, the lowest of their ids {@code firstStarted}) and
 * which jobs they ended ({@code ended}). A history read after it took those events says what they
 * did; this takes it back, so that the facts are those right after the event decided, whenever the
 * history took the next ones. A job id is never issued again and ids grow with the events, so the
 * jobs stored by the event decided are those below {@link #firstStarted}. Pure.
 */
public record Ahead(int started, long firstStarted, Set<Long> ended) {
  /** Nothing stored after the event decided. */
  public static final Ahead NONE = new Ahead(0, Long.MAX_VALUE, Set.of());

  /** The events that put a job in the queue, by simple class name. */
  private static final Set<String> STARTS = names(List.of(LedgerEvent.JobSubmitted.class, LedgerEvent.JobAdopted.class));
  /** The events that end a live job (every one of them leaves it in an ended state), by simple class name. */
  private static final Set<String> ENDS = names(List.of(LedgerEvent.JobExited.class, LedgerEvent.JobTimedOut.class,
      LedgerEvent.JobLaunchFailed.class, LedgerEvent.JobInterrupted.class, LedgerEvent.JobCancelled.class));

  public Ahead {
    ended = Set.copyOf(ended);
  }

  /** Whether an event of this type (simple class name, {@code JobExited}) matters here: it starts or ends a job. */
  public static boolean counts(String type) {
    return STARTS.contains(type) || ENDS.contains(type);
  }

  /** With the next stored event, of {@code type} (its simple class name), about job {@code jobId} (null: none). */
  public Ahead plus(String type, Long jobId) {
    if (jobId == null || !counts(type)) return this;
    if (STARTS.contains(type)) return new Ahead(started + 1, Math.min(firstStarted, jobId), ended);
    Set<Long> e = new HashSet<>(ended);
    e.add(jobId);
    return new Ahead(started, firstStarted, e);
  }

  /** Whether job {@code id} was stored by the event decided. */
  public boolean stored(long id) {
    return id < firstStarted;
  }

  /** The live jobs right after the event decided, from {@code liveInView}, those the history holds. */
  public long liveBefore(long liveInView) {
    // a job started and ended after it is in both counts and so in neither
    return liveInView - started + ended.size();
  }

  /**
   * The group right after the event decided, from {@code inView}: its counts over the jobs stored by
   * that event ({@link #stored}), as the history holds them. {@code endedAfter}: the states there of
   * those of its jobs that {@link #ended} ended after the event; each is counted live instead (as
   * RUNNING: which live state it was in does not matter here).
   */
  public static GroupFacts before(GroupFacts inView, List<JobState> endedAfter) {
    if (endedAfter.isEmpty()) return inView;
    Map<JobState, Integer> counts = new EnumMap<>(JobState.class);
    counts.putAll(inView.counts());
    for (JobState s : endedAfter) {
      counts.computeIfPresent(s, (k, n) -> n > 1 ? n - 1 : null);
      counts.merge(JobState.RUNNING, 1, Integer::sum);
    }
    return new GroupFacts(inView.group(), counts, inView.first(), inView.lastEnd());
  }

  private static Set<String> names(List<Class<?>> types) {
    Set<String> s = new HashSet<>();
    types.forEach(t -> s.add(t.getSimpleName()));
    return Set.copyOf(s);
  }
}
