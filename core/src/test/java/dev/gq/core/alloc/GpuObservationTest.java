package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.Job;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GpuObservationTest {

  private static GpuObservation observation(DeviceReading... devices) {
    return new GpuObservation(new GpuReading(T0, List.of(devices), null),
        Map.of(500L, new ProcessFacts(500, 40, 40, "tag-a"), 600L, new ProcessFacts(600, 1, 1, null)));
  }

  private static GpuState classify(GpuObservation obs, int index) {
    return GpuClassifier.classify(obs, List.of(), Map.of(), List.<Job>of()).get(index).state();
  }

  @Test
  void endedJobsDeadProcessesNoLongerKeepItsGpuFromBeingFree() {
    var obs = observation(device(0, 500), device(1, 600));
    assertEquals(GpuState.EXTERNAL, classify(obs, 0), "the reading still lists the ended job's process");

    var after = obs.withoutEnded(Set.of(uuid(0)), Set.of(1L, 600L));

    assertEquals(GpuState.FREE, classify(after, 0));
    assertEquals(List.of(), after.reading().devices().get(0).processes());
    assertFalse(after.facts().containsKey(500L));
    assertEquals(T0, after.reading().at(), "still the same reading");
  }

  @Test
  void aProcessStillAliveKeepsTheGpuOffLimits() {
    var obs = observation(device(0, 500));
    var after = obs.withoutEnded(Set.of(uuid(0)), Set.of(500L));
    assertSame(obs, after);
    assertEquals(GpuState.EXTERNAL, classify(after, 0));
  }

  @Test
  void aProcessProcNeverShowedIsKeptWhateverTheLaterLookSays() {
    // PID 700 has no /proc facts: another PID namespace or a ghost; its absence later proves nothing
    var obs = observation(device(0, 500, 700));
    var after = obs.withoutEnded(Set.of(uuid(0)), Set.of());
    assertEquals(List.of(700L), after.reading().devices().get(0).processes().stream()
        .map(DeviceReading.GpuProcess::pid).toList());
    assertNotEquals(GpuState.FREE, classify(after, 0), "a GPU with an unseen process is never given out");
  }

  @Test
  void onlyTheEndedJobsGpusAreTouched() {
    var obs = observation(device(0, 500), device(1, 600));
    var after = obs.withoutEnded(Set.of(uuid(0)), Set.of());
    assertEquals(GpuState.EXTERNAL, classify(after, 1), "an outside process on another GPU stays, dead or not");
    assertTrue(after.facts().containsKey(600L));
  }

  @Test
  void failedReadingsAndFailedDevicesAreLeftAsTheyAre() {
    var failed = new GpuObservation(GpuReading.failed(T0, "NVML gone"), Map.of());
    assertSame(failed, failed.withoutEnded(Set.of(uuid(0)), Set.of()));
    var obs = observation(DeviceReading.failed(0, uuid(0), "lost"));
    assertSame(obs, obs.withoutEnded(Set.of(uuid(0)), Set.of()));
    assertEquals(GpuState.UNKNOWN, classify(obs, 0));
  }
}
