package dev.gq.core.health;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHealth;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent.GpuDrained;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnwellGpusTest {
  private static DeviceReading sick(int index, GpuHealth h) {
    DeviceReading d = device(index);
    return new DeviceReading(d.index(), d.uuid(), d.name(), d.totalBytes(), d.usedBytes(), d.processes(), null,
        GpuFigures.NONE, h);
  }

  private static GpuReading reading(DeviceReading... ds) {
    return new GpuReading(T0, List.of(ds), null);
  }

  private static final GpuHealth XID_79 = new GpuHealth(List.of(79), null, false, false, false);

  @Test
  void aGpuShownUnwellIsDrainedWithTheReason() {
    var events = UnwellGpus.drains(Ledger.empty(), null, reading(device(0), sick(1, XID_79)), T0);
    assertEquals(List.of(new GpuDrained(uuid(1), "unwell: Xid 79: fell off the bus", T0)), events);
  }

  @Test
  void theSameConditionInTheNextReadingDrainsNothingMore() {
    var before = reading(sick(0, XID_79));
    assertEquals(List.of(), UnwellGpus.drains(Ledger.empty(), before, reading(sick(0, XID_79)), T0));
  }

  @Test
  void aGpuAlreadyDrainedForTheSameReasonIsNotDrainedAgain() {
    Ledger l = Ledger.empty().apply(new GpuDrained(uuid(0), "unwell: Xid 79: fell off the bus", T0));
    assertEquals(List.of(), UnwellGpus.drains(l, null, reading(sick(0, XID_79)), T0));
  }

  @Test
  void aGpuTheUserDrainedIsDrainedAgainForItsHealth() {
    Ledger l = Ledger.empty().apply(new GpuDrained(uuid(0), "kept for notebooks", T0));
    assertEquals(1, UnwellGpus.drains(l, null, reading(sick(0, XID_79)), T0).size());
  }

  @Test
  void aFailedReadingDrainsNothing() {
    assertEquals(List.of(), UnwellGpus.drains(Ledger.empty(), null, GpuReading.failed(T0, "driver gone"), T0));
  }
}
