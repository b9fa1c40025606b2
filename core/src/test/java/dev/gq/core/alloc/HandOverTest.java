package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HandOverTest {

  private static GpuState state(HandOver h, GpuStatus g) {
    return h.withhold(List.of(g)).get(0).state();
  }

  @Test
  void aGpuFreedAfterTheReadingInHandIsWithheldUntilAReadingTakenAfterTheEnd() {
    HandOver h = HandOver.none().observed(100).ended(Map.of(uuid(0), 7L), 200);
    assertTrue(h.waiting());
    GpuStatus shown = h.withhold(List.of(free(0))).get(0);
    assertEquals(GpuState.UNKNOWN, shown.state(), "a reading older than the end proves nothing");
    assertTrue(shown.detail().contains("job 7"), shown.detail());
    assertEquals(GpuState.UNKNOWN, state(h.observed(150), free(0)), "taken before the end");
    assertEquals(GpuState.UNKNOWN, state(h.observed(200), free(0)), "taken at the very moment: not after it");
    HandOver seen = h.observed(201);
    assertFalse(seen.waiting());
    assertEquals(GpuState.FREE, state(seen, free(0)));
  }

  @Test
  void aReadingTakenAfterTheEndThatIsAlreadyInHandFreesTheGpuAtOnce() {
    HandOver h = HandOver.none().observed(300).ended(Map.of(uuid(0), 7L), 200);
    assertFalse(h.waiting());
    assertEquals(GpuState.FREE, state(h, free(0)));
  }

  @Test
  void withNoReadingYetAFreedGpuWaits() {
    HandOver h = HandOver.none().ended(Map.of(uuid(0), 7L), 200);
    assertTrue(h.waiting());
    assertFalse(h.observed(250).waiting());
  }

  @Test
  void aStaleReadingIsRefusedAndChangesNothing() {
    HandOver h = HandOver.none().observed(500).ended(Map.of(uuid(0), 7L), 600);
    assertFalse(h.accepts(400), "taken before the reading in hand");
    assertSame(h, h.observed(400));
    assertTrue(h.accepts(500));
    assertTrue(h.accepts(700));
  }

  @Test
  void momentsCompareAcrossTheNanoTimeWrap() {
    long before = Long.MAX_VALUE - 10, after = Long.MIN_VALUE + 10; // after wraps around
    HandOver h = HandOver.none().observed(before).ended(Map.of(uuid(0), 7L), before + 5);
    assertTrue(h.accepts(after));
    assertFalse(h.observed(after).waiting());
  }

  @Test
  void onlyFreeGpusAreWithheldAndOthersKeepWhatTheyShow() {
    HandOver h = HandOver.none().ended(Map.of(uuid(0), 7L, uuid(1), 7L), 200);
    List<GpuStatus> shown = h.withhold(List.of(gpu(0, GpuState.EXTERNAL), free(1), free(2)));
    assertEquals(List.of(GpuState.EXTERNAL, GpuState.UNKNOWN, GpuState.FREE), shown.stream().map(GpuStatus::state).toList());
  }

  @Test
  void eachGpuWaitsForAReadingAfterItsOwnJobsEnd() {
    HandOver h = HandOver.none().observed(100).ended(Map.of(uuid(0), 7L), 200).ended(Map.of(uuid(1), 8L), 400);
    HandOver mid = h.observed(300);
    assertEquals(List.of(GpuState.FREE, GpuState.UNKNOWN), mid.withhold(List.of(free(0), free(1))).stream()
        .map(GpuStatus::state).toList());
  }
}
