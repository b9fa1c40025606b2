package dev.gq.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gq.core.job.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class UsageTest {
  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");
  private static final Period DAY = new Period(T0, T0.plus(Duration.ofDays(1)));
  private static final JobSpan.GpuRef G0 = new JobSpan.GpuRef("GPU-a", 0);
  private static final JobSpan.GpuRef G1 = new JobSpan.GpuRef("GPU-b", 1);

  private static Instant h(double hours) {
    return T0.plusSeconds(Math.round(hours * 3600));
  }

  private static JobSpan job(long id, String group, JobState s, double submit, Double start, Double end,
      JobSpan.GpuRef... gpus) {
    return new JobSpan(id, group, s, h(submit), start == null ? null : h(start), end == null ? null : h(end), List.of(gpus));
  }

  @Test
  void gpuHoursAreClippedToThePeriodAndCountedOncePerGpu() {
    var jobs = List.of(
        job(1, "a", JobState.DONE, -3, -2.0, 2.0, G0),          // 2 h inside the day
        job(2, "a", JobState.DONE, 1, 1.0, 4.0, G0, G1),         // 3 h on two GPUs
        job(3, "b", JobState.RUNNING, 20, 22.0, null, G1));      // runs past the end: 2 h
    UsageReport r = Usage.of(jobs, List.of(), List.of(G0, G1), DAY, null);
    assertEquals(2 + 6 + 2, r.total().gpuHours(), 1e-9);
    assertEquals(5, r.gpus().get(0).gpuHours(), 1e-9);
    assertEquals(5, r.gpus().get(1).gpuHours(), 1e-9);
    assertEquals(8, r.groups().get(0).gpuHours(), 1e-9);
    assertEquals("b", r.groups().get(1).name());
    assertEquals(2, r.groups().get(1).gpuHours(), 1e-9);
  }

  @Test
  void sharedJobsCountTheirShareOfTheCardSoACardNeverHoldsMoreHoursThanPassed() {
    var big = new JobSpan.GpuRef("GPU-a", 0, 81_920);
    var small = new JobSpan.GpuRef("GPU-b", 1, 24_576);
    var quarter = new JobSpan.Share(20_480, 0);
    List<JobSpan> jobs = new java.util.ArrayList<>();
    for (int i = 1; i <= 4; i++) jobs.add(shared(i, quarter, 0.0, 10.0, big));  // four quarters of GPU 0 for 10 h
    jobs.add(shared(5, new JobSpan.Share(0, 2), 0.0, 10.0, small));              // half of GPU 1 (--per-gpu 2)
    jobs.add(job(6, "a", JobState.DONE, 0, 12.0, 14.0, big, small));             // 2 h on both, exclusive
    UsageReport r = Usage.of(jobs, List.of(), List.of(big, small), DAY, null);
    assertEquals(10 + 2, r.gpus().get(0).gpuHours(), 1e-6, "four quarter shares fill the card, not four cards");
    assertEquals(5 + 2, r.gpus().get(1).gpuHours(), 1e-6);
    assertEquals(10 + 5 + 4, r.total().gpuHours(), 1e-6, "the 2-GPU job counts twice in all");
    assertEquals(r.total().gpuHours(), r.groups().get(0).gpuHours(), 1e-6);
    assertEquals(5, r.sharedJobs());
  }

  @Test
  void aSharedJobOnACardOfUnknownSizeCountsTheWholeCard() {
    var gone = new JobSpan.GpuRef("GPU-z", 7);
    UsageReport r = Usage.of(List.of(shared(1, new JobSpan.Share(20_480, 0), 0.0, 3.0, gone)), List.of(), List.of(G0), DAY, null);
    assertEquals(3, r.total().gpuHours(), 1e-9);
  }

  private static JobSpan shared(long id, JobSpan.Share share, double start, double end, JobSpan.GpuRef gpu) {
    return new JobSpan(id, "a", JobState.DONE, h(start), h(start), h(end), List.of(gpu), share);
  }

  @Test
  void jobsCountByTheStateTheyEndedInWithinThePeriod() {
    var jobs = List.of(
        job(1, "a", JobState.DONE, -3, -2.0, -1.0, G0),          // ended before the day: not counted
        job(2, "a", JobState.DONE, 1, 1.0, 2.0, G0),
        job(3, "a", JobState.FAILED, 1, 2.0, 3.0, G0),
        job(4, "a", JobState.CANCELLED, 1, null, 5.0),           // cancelled while waiting
        job(5, "a", JobState.TIMEOUT, 1, 3.0, 4.0, G1));
    UsageRow all = Usage.of(jobs, List.of(), List.of(G0, G1), DAY, null).total();
    assertEquals(1, all.ended(JobState.DONE));
    assertEquals(1, all.ended(JobState.FAILED));
    assertEquals(1, all.ended(JobState.CANCELLED));
    assertEquals(1, all.ended(JobState.TIMEOUT));
    assertEquals(0, all.ended(JobState.INTERRUPTED));
  }

  @Test
  void waitsAreMedianAndNinetiethPercentileOfJobsStartedInThePeriod() {
    var jobs = new java.util.ArrayList<JobSpan>();
    for (int i = 1; i <= 10; i++) jobs.add(job(i, "a", JobState.DONE, 1, 1 + i / 60.0, 12.0, G0)); // waits 1..10 min
    jobs.add(job(11, "a", JobState.DONE, -5, -4.0, 1.0, G0));                                       // started before
    UsageRow all = Usage.of(jobs, List.of(), List.of(G0), DAY, null).total();
    assertEquals(10, all.started());
    assertEquals(Duration.ofMinutes(5), all.waitMedian());
    assertEquals(Duration.ofMinutes(9), all.waitP90());
  }

  @Test
  void noJobStartedGivesNoWaits() {
    UsageRow all = Usage.of(List.of(job(1, "a", JobState.WAITING, 1, null, null)), List.of(), List.of(G0), DAY, null).total();
    assertEquals(0, all.started());
    assertNull(all.waitMedian());
    assertNull(all.waitP90());
  }

  @Test
  void outsideAndIdleComeFromTheRecordedSpansAndAreUnknownBeforeThem() {
    var spans = List.of(
        new GpuSpan("GPU-a", 0, GpuUse.IDLE, h(12), h(14)),
        new GpuSpan("GPU-a", 0, GpuUse.OUTSIDE, h(14), h(15.5)),
        new GpuSpan("GPU-a", 0, GpuUse.JOBS, h(15.5), h(20)),
        new GpuSpan("GPU-b", 1, GpuUse.IDLE, h(23), h(30)));     // runs past the day: 1 h
    UsageReport r = Usage.of(List.of(), spans, List.of(G0, G1), DAY, null);
    assertEquals(h(12), r.gpuTimeKnownFrom());
    assertEquals(Duration.ofHours(8 + 1), r.gpuTimeKnown(), "12..20 and 23..24, the gap between unknown");
    assertEquals(1.5, r.gpus().get(0).outsideHours(), 1e-9);
    assertEquals(2, r.gpus().get(0).idleHours(), 1e-9);
    assertEquals(1, r.gpus().get(1).idleHours(), 1e-9);
    assertEquals(3, r.total().idleHours(), 1e-9);
    UsageReport none = Usage.of(List.of(), List.of(), List.of(G0), DAY, null);
    assertNull(none.gpuTimeKnownFrom());
    assertNull(none.gpus().get(0).idleHours());
    assertNull(none.total().outsideHours());
    assertEquals(Duration.ZERO, none.gpuTimeKnown());
  }

  @Test
  void aGroupReportCountsOnlyThatGroupsJobs() {
    var jobs = List.of(job(1, "a", JobState.DONE, 1, 1.0, 2.0, G0), job(2, "b", JobState.FAILED, 1, 1.0, 3.0, G1),
        job(3, null, JobState.DONE, 1, 1.0, 2.0, G1));
    UsageReport r = Usage.of(jobs, List.of(), List.of(G0, G1), DAY, "b");
    assertEquals(1, r.groups().size());
    assertEquals(2, r.total().gpuHours(), 1e-9);
    assertEquals(0, r.gpus().get(0).gpuHours(), 1e-9);
    assertEquals(1, r.total().ended(JobState.FAILED));
    UsageReport all = Usage.of(jobs, List.of(), List.of(G0, G1), DAY, null);
    assertEquals(Usage.NO_GROUP, all.groups().get(2).name());
  }

  @Test
  void gpusAreListedByIndexIncludingOnesThatOnlyOldJobsHeld() {
    var gone = new JobSpan.GpuRef("GPU-z", 7);
    UsageReport r = Usage.of(List.of(job(1, "a", JobState.DONE, 1, 1.0, 2.0, gone)), List.of(), List.of(G1, G0), DAY, null);
    assertEquals(List.of("GPU-a", "GPU-b", "GPU-z"), r.gpus().stream().map(UsageRow::name).toList());
    assertEquals(7, r.gpus().get(2).gpuIndex());
  }

  @Test
  void quantileIsByNearestRank() {
    var d = List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));
    assertEquals(Duration.ofSeconds(2), Usage.quantile(d, 0.5));
    assertEquals(Duration.ofSeconds(3), Usage.quantile(d, 0.9));
    assertEquals(Duration.ofSeconds(1), Usage.quantile(List.of(Duration.ofSeconds(1)), 0.9));
    assertNull(Usage.quantile(List.of(), 0.5));
  }

  @Test
  void queueLengthCountsJobsFromSubmissionUntilTheyStartOrEnd() {
    var jobs = List.of(
        job(1, "a", JobState.DONE, -1, 2.0, 3.0, G0),          // waiting at the start, leaves at 2
        job(2, "a", JobState.DONE, 1, 4.0, 5.0, G0),           // 1 .. 4
        job(3, "a", JobState.CANCELLED, 3, null, 6.0),          // 3 .. 6, never started
        job(4, "a", JobState.DONE, -3, -2.0, 1.0, G0),         // left before the day
        job(5, "a", JobState.WAITING, 10, null, null));        // still waiting
    var points = QueueLength.over(jobs, DAY);
    assertEquals(List.of(new QueueLength.Point(T0, 1), new QueueLength.Point(h(1), 2), new QueueLength.Point(h(2), 1),
        new QueueLength.Point(h(3), 2), new QueueLength.Point(h(4), 1), new QueueLength.Point(h(6), 0),
        new QueueLength.Point(h(10), 1)), points);
  }
}
