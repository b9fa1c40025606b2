package dev.gq.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpanRecorderTest {
  private static final Instant T0 = Instant.parse("2026-11-30T00:00:00Z");

  private static SpanRecorder.Seen seen(String uuid, GpuUse use) {
    return new SpanRecorder.Seen(uuid, uuid.equals("a") ? 0 : 1, use);
  }

  @Test
  void theSameUseExtendsOneSpanAndAChangeClosesItWhereTheNextBegins() {
    SpanRecorder r = new SpanRecorder();
    r.seen(List.of(seen("a", GpuUse.IDLE)), T0);
    r.seen(List.of(seen("a", GpuUse.IDLE)), T0.plusSeconds(1));
    r.seen(List.of(seen("a", GpuUse.IDLE)), T0.plusSeconds(2));
    assertEquals(List.of(new GpuSpan("a", 0, GpuUse.IDLE, T0, T0.plusSeconds(2))), r.drain());
    r.seen(List.of(seen("a", GpuUse.OUTSIDE)), T0.plusSeconds(3));
    assertEquals(List.of(new GpuSpan("a", 0, GpuUse.IDLE, T0, T0.plusSeconds(3)),
        new GpuSpan("a", 0, GpuUse.OUTSIDE, T0.plusSeconds(3), T0.plusSeconds(3))), r.drain());
    assertEquals(List.of(), r.drain());
  }

  @Test
  void aGpuMissingFromAReadingAndAStopCloseTheirSpans() {
    SpanRecorder r = new SpanRecorder();
    r.seen(List.of(seen("a", GpuUse.JOBS), seen("b", GpuUse.IDLE)), T0);
    r.drain();
    r.seen(List.of(seen("a", GpuUse.JOBS)), T0.plusSeconds(5));
    assertEquals(List.of(new GpuSpan("b", 1, GpuUse.IDLE, T0, T0.plusSeconds(5)),
        new GpuSpan("a", 0, GpuUse.JOBS, T0, T0.plusSeconds(5))), r.drain());
    r.stop(T0.plusSeconds(9));
    assertEquals(List.of(new GpuSpan("a", 0, GpuUse.JOBS, T0, T0.plusSeconds(9))), r.drain());
    r.seen(List.of(seen("a", GpuUse.JOBS)), T0.plusSeconds(20));
    r.seen(List.of(seen("a", GpuUse.JOBS)), T0.plusSeconds(21));
    assertEquals(List.of(new GpuSpan("a", 0, GpuUse.JOBS, T0.plusSeconds(20), T0.plusSeconds(21))), r.drain());
  }

  @Test
  void spansWhoseWriteFailedComeBackWithTheNextDrain() {
    SpanRecorder r = new SpanRecorder();
    r.seen(List.of(seen("a", GpuUse.IDLE)), T0);
    r.seen(List.of(seen("a", GpuUse.JOBS)), T0.plusSeconds(1));
    List<GpuSpan> failed = r.drain();
    r.retry(failed);
    r.seen(List.of(seen("a", GpuUse.JOBS)), T0.plusSeconds(2));
    assertEquals(List.of(new GpuSpan("a", 0, GpuUse.IDLE, T0, T0.plusSeconds(1)),
        new GpuSpan("a", 0, GpuUse.JOBS, T0.plusSeconds(1), T0.plusSeconds(2))), r.drain());
  }
}
