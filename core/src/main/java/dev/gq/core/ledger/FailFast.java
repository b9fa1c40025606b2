package dev.gq.core.ledger;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.ledger.Ledger.StreakFailure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The fail-fast rule: a group is held when its last {@code count} ended jobs (DONE or FAILED,
 * since its last release) all FAILED within {@code within} of starting; the hold's reason names
 * the failure they share, if they share one. A success breaks the run; CANCELLED, INTERRUPTED and
 * TIMEOUT neither count nor break it. The ledger keeps, per group, only the FAILED jobs since the
 * last success or release, at most {@link #MAX_COUNT}. A count of 0 or a zero duration turns the
 * rule off. {@link FailFastGate} keeps a group from starting more jobs than could fail before the
 * rule holds it.
 */
public record FailFast(int count, Duration within) {
  public static final int MAX_COUNT = 100;
  /** The longest failure reason a run keeps, and so the longest a hold's reason quotes. */
  public static final int REASON_CHARS = 120;
  public static final FailFast DEFAULT = new FailFast(3, Duration.ofSeconds(60));
  public static final FailFast OFF = new FailFast(0, Duration.ZERO);

  public boolean off() {
    return count <= 0 || within.isZero() || within.isNegative();
  }

  /** The run of failures after {@code j} ended (grouped jobs only). */
  static Map<String, List<StreakFailure>> record(Map<String, List<StreakFailure>> streaks, Job j) {
    String g = j.spec().group();
    if (g == null) return streaks;
    PersistentMap<String, List<StreakFailure>> m = Ledger.map(streaks);
    if (j.state() == JobState.DONE) return m.minus(g);
    if (j.state() != JobState.FAILED) return m;
    List<StreakFailure> run = new ArrayList<>(m.getOrDefault(g, List.of()));
    long ran = j.startTime() == null || j.endTime() == null ? 0 : Duration.between(j.startTime(), j.endTime()).toMillis();
    run.add(new StreakFailure(j.id(), ran, shortened(j.failureReason())));
    if (run.size() > MAX_COUNT) run = run.subList(run.size() - MAX_COUNT, run.size());
    return m.plus(g, List.copyOf(run));
  }

  /** The hold reason when {@code group}'s last {@code count} ended jobs all failed quickly; null otherwise. */
  String holdReason(Ledger l, String group) {
    if (off() || group == null || l.holds().containsKey(group)) return null;
    List<StreakFailure> run = l.streaks().getOrDefault(group, List.of());
    if (run.size() < count) return null;
    List<StreakFailure> last = run.subList(run.size() - count, run.size());
    if (last.stream().anyMatch(f -> f.ranMillis() >= within.toMillis())) return null;
    String ids = last.stream().map(StreakFailure::jobId).sorted().map(String::valueOf).collect(Collectors.joining(", "));
    String reason = count + " jobs in a row failed within " + seconds() + " of starting (" + ids + ")";
    String common = last.get(0).reason();
    boolean shared = common != null && last.stream().allMatch(f -> Objects.equals(f.reason(), common));
    return shared ? reason + ": " + common : reason;
  }

  /**
   * How many failures, counted back from the end of {@code group}'s run, were quick; at most
   * {@code count - 1}, so that a group never waits for a hold that endings concluded at start-up
   * (which sit in the run but hold nothing) will not bring.
   */
  int quickFailures(Ledger l, String group) {
    List<StreakFailure> run = l.streaks().getOrDefault(group, List.of());
    int n = 0;
    for (int i = run.size() - 1; i >= 0 && run.get(i).ranMillis() < within.toMillis(); i--) n++;
    return Math.min(n, count - 1);
  }

  /** One line of at most {@link #REASON_CHARS} characters, its hidden characters written visibly; null stays null. */
  static String shortened(String reason) {
    if (reason == null) return null;
    String s = PrintableText.escape(reason.strip());
    return s.length() <= REASON_CHARS ? s : s.substring(0, REASON_CHARS - 3) + "...";
  }

  private String seconds() {
    long ms = within.toMillis();
    return ms % 1000 == 0 ? ms / 1000 + " s" : ms / 1000.0 + " s";
  }
}
