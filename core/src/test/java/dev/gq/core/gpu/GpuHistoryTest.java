package dev.gq.core.gpu;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GpuHistoryTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static GpuReading reading(Instant at, Integer... utils) {
    List<DeviceReading> ds = new ArrayList<>();
    for (int i = 0; i < utils.length; i++)
      ds.add(new DeviceReading(i, "GPU-" + i, "Fake", 100, 10, List.of(), null,
          new GpuFigures(utils[i], null, 50, 100, 300)));
    return new GpuReading(at, ds, null);
  }

  @Test
  void keepsTheLastPointsOfEachGpuOldestFirst() {
    GpuHistory h = new GpuHistory(3, Duration.ofMillis(500));
    for (int s = 0; s < 5; s++) h.record(reading(T0.plusSeconds(s), s * 10, null));
    assertEquals(List.of(20, 30, 40), h.traces().get("GPU-0").util());
    assertEquals(Arrays.asList(null, null, null), h.traces().get("GPU-1").util());
    assertEquals(50, h.traces().get("GPU-0").latest().temperatureC());
  }

  @Test
  void aReadingSoonAfterTheLastUpdatesTheFiguresButAddsNoPoint() {
    GpuHistory h = new GpuHistory(5, Duration.ofMillis(500));
    h.record(reading(T0, 10));
    h.record(reading(T0.plusMillis(100), 90));
    assertEquals(List.of(10), h.traces().get("GPU-0").util());
    assertEquals(90, h.traces().get("GPU-0").latest().utilPercent());
  }

  @Test
  void aGpuThatIsGoneIsForgottenAndAFailedReadingKeepsNothing() {
    GpuHistory h = new GpuHistory(5, Duration.ZERO);
    h.record(reading(T0, 10, 20));
    h.record(GpuReading.failed(T0.plusSeconds(1), "NVML gone"));
    assertEquals(Set.of("GPU-0", "GPU-1"), h.traces().keySet());
    h.record(reading(T0.plusSeconds(2), 30));
    assertEquals(Set.of("GPU-0"), h.traces().keySet());
    assertEquals(List.of(10, 30), h.traces().get("GPU-0").util());
  }
}
