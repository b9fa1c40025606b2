package dev.gq.core.job;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A job's state. WAITING → STARTING (reserved) → RUNNING → DONE | FAILED; CANCELLING while a
 * cancel is under way; CANCELLED, ORPHANED (its GPU vanished), INTERRUPTED (reboot, or gone with
 * no exit status), TIMEOUT (stopped at its time limit); PREEMPTING while a preemption's signal
 * gives it time to save (it keeps its GPUs), then PREEMPTED: stopped to make room, not a failure,
 * to be continued by {@code gq resume} as a new attempt; EXITED: only an adopted job ({@code gq
 * adopt}) ends in it, when its process is gone, since gq did not start that process and cannot know
 * its exit status (a job gq launched never ends EXITED: gq has its exit status; the event
 * {@code JobExited} is any job's end, not this state). HELD is not a state: it is how {@code gq ps}
 * shows a WAITING job of a held group or queue. A job is <em>live</em> in every state that is not
 * ended ({@link #live()}): the Scheduler's ledger keeps exactly those jobs.
 */
public enum JobState {
  WAITING, STARTING, RUNNING, CANCELLING, DONE, FAILED, CANCELLED, ORPHANED, INTERRUPTED, TIMEOUT, PREEMPTING, PREEMPTED,
  EXITED;

  private static final Set<JobState> ENDED = Collections.unmodifiableSet(EnumSet.copyOf(
      Arrays.stream(values()).filter(JobState::terminal).toList()));
  private static final Set<JobState> LIVE = Collections.unmodifiableSet(EnumSet.complementOf(EnumSet.copyOf(ENDED)));

  /** The ended states: those {@link #terminal} is true of. */
  public static Set<JobState> ended() {
    return ENDED;
  }

  /** The live states: every state that is not ended (the jobs the Scheduler's ledger holds). */
  public static Set<JobState> live() {
    return LIVE;
  }

  /**
   * The ended states among {@code wanted}, every ended state when {@code wanted} is empty: the jobs
   * {@code gq clean} deletes (a live state in {@code wanted} selects nothing).
   */
  public static Set<JobState> endedAmong(Set<JobState> wanted) {
    if (wanted.isEmpty()) return ENDED;
    EnumSet<JobState> s = EnumSet.noneOf(JobState.class);
    for (JobState st : wanted) if (st.terminal()) s.add(st);
    return Collections.unmodifiableSet(s);
  }

  /**
   * Ended for good: DONE, FAILED, CANCELLED, INTERRUPTED, TIMEOUT, PREEMPTED, EXITED. ORPHANED still
   * holds its GPUs, so it is not.
   */
  public boolean terminal() {
    return this == DONE || this == FAILED || this == CANCELLED || this == INTERRUPTED || this == TIMEOUT
        || this == PREEMPTED || this == EXITED;
  }

  /**
   * Ended without success, so its key may be used again: FAILED, CANCELLED, INTERRUPTED, TIMEOUT.
   * Each may be retried, and so may a PREEMPTED job (its retry resumes it; {@code Retries.RETRYABLE}),
   * which keeps its key: it stopped to make room, not for a failure.
   */
  public boolean unsuccessful() {
    return this == FAILED || this == CANCELLED || this == INTERRUPTED || this == TIMEOUT;
  }

  /**
   * A cancel acts on it: WAITING (it never starts), STARTING, RUNNING, PREEMPTING (it is stopped).
   * CANCELLING is already being cancelled; an ORPHANED job's GPUs are gone, and ended jobs are over.
   */
  public boolean cancellable() {
    return this == WAITING || this == STARTING || this == RUNNING || this == PREEMPTING;
  }

  /** Has (or may have) processes: STARTING, RUNNING, CANCELLING, PREEMPTING, ORPHANED. */
  public boolean active() {
    return this == STARTING || this == RUNNING || this == CANCELLING || this == PREEMPTING || this == ORPHANED;
  }

  /** Being stopped on request, its runner's signals under way: CANCELLING or PREEMPTING. */
  public boolean stopping() {
    return this == CANCELLING || this == PREEMPTING;
  }

  /** The states {@code rule} holds for, such as {@code JobState::cancellable}. */
  public static Set<JobState> where(Predicate<JobState> rule) {
    EnumSet<JobState> out = EnumSet.noneOf(JobState.class);
    for (JobState s : values()) if (rule.test(s)) out.add(s);
    return Collections.unmodifiableSet(out);
  }

  /** Holds GPU reservations: the active states. */
  public boolean holdsGpus() {
    return active();
  }
}
