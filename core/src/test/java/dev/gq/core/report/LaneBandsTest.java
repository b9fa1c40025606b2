package dev.gq.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LaneBandsTest {
  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  private static LaneBands.Bar bar(long id, long from, long to, double share) {
    return new LaneBands.Bar(id, T0.plusSeconds(from), T0.plusSeconds(to), share);
  }

  @Test
  void sharedJobsAtTheSameTimeStackAsTheirShares() {
    Map<Long, LaneBands.Band> b = LaneBands.of(List.of(bar(1, 0, 100, 0.25), bar(2, 0, 100, 0.25), bar(3, 10, 50, 0.5)));
    assertEquals(new LaneBands.Band(0, 0.25), b.get(1L));
    assertEquals(new LaneBands.Band(0.25, 0.5), b.get(2L));
    assertEquals(new LaneBands.Band(0.5, 1), b.get(3L));
  }

  @Test
  void aShareLeftFreeIsTakenByTheNextJobAndAnExclusiveJobFillsTheLane() {
    Map<Long, LaneBands.Band> b = LaneBands.of(List.of(bar(1, 0, 100, 0.25), bar(2, 0, 40, 0.25), bar(3, 50, 90, 0.5),
        bar(4, 200, 300, 1)));
    assertEquals(new LaneBands.Band(0.25, 0.75), b.get(3L), "job 2's place is free again after 40 s");
    assertEquals(new LaneBands.Band(0, 1), b.get(4L));
  }

  @Test
  void aBarThatFitsNowhereIsLaidAtTheTop() {
    Map<Long, LaneBands.Band> b = LaneBands.of(List.of(bar(1, 0, 100, 0.75), bar(2, 0, 100, 0.5)));
    assertEquals(new LaneBands.Band(0.5, 1), b.get(2L));
  }
}
