package dev.gq.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fold ({@link Usage}) against the list-based computation it replaced ({@link UsageReference}),
 * on many random histories: the same report, figure for figure, and the same period from the first
 * use. Times are whole milliseconds, as the history stores them; the period's ends are not.
 */
class UsageFoldTest {
  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
  private static final String[] UUIDS = {"GPU-a", "GPU-b", "GPU-c", "GPU-d", "GPU-e"};
  private static final String[] GROUPS = {"sweep", "eval", "-", "a", null};
  private static final JobState[] STATES = JobState.values();

  @Test
  void theFoldGivesTheSameReportAsTheListsOnRandomHistories() {
    for (int seed = 0; seed < 600; seed++) {
      Random r = new Random(seed);
      Period asked = period(r);
      List<JobSpan> jobs = new ArrayList<>();
      int n = r.nextInt(4) == 0 ? 0 : r.nextInt(seed % 7 == 0 ? 400 : 40);
      for (int i = 0; i < n; i++) jobs.add(job(r, i, asked));
      List<GpuSpan> spans = new ArrayList<>();
      int m = r.nextInt(3) == 0 ? 0 : r.nextInt(30);
      for (int i = 0; i < m; i++) spans.add(span(r, asked));
      spans.sort(Comparator.comparing(GpuSpan::start));   // as the database hands them over
      List<JobSpan.GpuRef> known = known(r);
      String group = r.nextInt(3) == 0 ? GROUPS[r.nextInt(GROUPS.length)] : null;

      Usage fold = new Usage(known, asked, group);
      spans.forEach(fold::span);
      jobs.forEach(fold::job);
      Period p = UsageReference.fromFirstUse(jobs, spans, asked);
      assertEquals(p, asked.fromFirstUse(fold.firstUse()), "seed " + seed);
      assertEquals(UsageReference.of(jobs, spans, known, asked, group), fold.report(), "seed " + seed);
      assertEquals(UsageReference.of(jobs, spans, known, p, group), Usage.of(jobs, spans, known, p, group), "seed " + seed);
    }
  }

  @Test
  void spansOutOfOrderAreRefusedRatherThanMiscounted() {
    Period day = new Period(T0, T0.plus(Duration.ofDays(1)));
    Usage fold = new Usage(List.of(), day, null);
    fold.span(new GpuSpan("GPU-a", 0, GpuUse.IDLE, T0.plusSeconds(600), T0.plusSeconds(900)));
    assertThrows(IllegalArgumentException.class,
        () -> fold.span(new GpuSpan("GPU-b", 1, GpuUse.IDLE, T0.plusSeconds(60), T0.plusSeconds(90))));
  }

  @Test
  void nothingTakenGivesAnEmptyReportAndNoFirstUse() {
    Period day = new Period(T0, T0.plus(Duration.ofDays(1)));
    Usage fold = new Usage(List.of(new JobSpan.GpuRef("GPU-a", 0)), day, null);
    assertNull(fold.firstUse());
    assertEquals(day, day.fromFirstUse(fold.firstUse()));
    UsageReport r = fold.report();
    assertEquals(1, r.gpus().size());
    assertEquals(0, r.total().started());
    assertEquals(Duration.ZERO, r.gpuTimeKnown());
  }

  /** A period of a few hours to two days, its ends anywhere (a clock's nanoseconds included). */
  private static Period period(Random r) {
    Instant from = T0.plusNanos(r.nextLong(Duration.ofHours(6).toNanos()));
    return new Period(from, from.plusNanos(1 + r.nextLong(Duration.ofDays(2).toNanos())));
  }

  /** A job submitted up to a day before the period or in it, in any state, with any times the history might hold. */
  private static JobSpan job(Random r, long id, Period asked) {
    Instant submit = r.nextInt(20) == 0 ? null : ms(r, asked.from().minus(Duration.ofDays(1)), asked.to());
    Instant base = submit == null ? asked.from() : submit;
    Instant start = r.nextInt(4) == 0 ? null : ms(r, base.minusSeconds(r.nextInt(8) == 0 ? 600 : 0), asked.to().plusSeconds(3600));
    Instant from = start == null ? base : start;
    Instant end = r.nextInt(4) == 0 ? null : ms(r, from, asked.to().plus(Duration.ofHours(3)));
    JobState state = STATES[r.nextInt(STATES.length)];
    List<JobSpan.GpuRef> gpus = new ArrayList<>();
    for (int k = r.nextInt(4); k > 0; k--) {
      int u = r.nextInt(UUIDS.length);
      gpus.add(new JobSpan.GpuRef(UUIDS[u], r.nextInt(6) == 0 ? 9 - u : u));
    }
    JobSpan.Share share = switch (r.nextInt(4)) {
      case 0 -> new JobSpan.Share(1 + r.nextInt(40_000), 0);
      case 1 -> new JobSpan.Share(0, r.nextInt(5));
      default -> null;
    };
    return new JobSpan(id, GROUPS[r.nextInt(GROUPS.length)], state, submit, start, end, gpus, share);
  }

  private static GpuSpan span(Random r, Period asked) {
    Instant start = ms(r, asked.from().minus(Duration.ofHours(3)), asked.to().plusSeconds(60));
    Instant end = ms(r, start, start.plus(Duration.ofHours(1 + r.nextInt(30))));
    int u = r.nextInt(UUIDS.length);
    return new GpuSpan(UUIDS[u], r.nextInt(5) == 0 ? 7 : u, GpuUse.values()[r.nextInt(GpuUse.values().length)], start, end);
  }

  private static List<JobSpan.GpuRef> known(Random r) {
    List<JobSpan.GpuRef> out = new ArrayList<>();
    for (int u = 0; u < 3; u++) if (r.nextInt(4) > 0) out.add(new JobSpan.GpuRef(UUIDS[u], u, r.nextInt(3) == 0 ? 0 : 24_576L << u));
    return out;
  }

  /** A moment in {@code [a, b]} to the millisecond (a itself when b is not later). */
  private static Instant ms(Random r, Instant a, Instant b) {
    long lo = a.toEpochMilli();
    long hi = b.toEpochMilli();
    return Instant.ofEpochMilli(hi <= lo ? lo : lo + r.nextLong(hi - lo + 1));
  }
}
