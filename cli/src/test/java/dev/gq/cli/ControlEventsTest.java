package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ControlEventsTest {
  private static GpuStatus gpu(GpuState state) {
    return new GpuStatus(0, "GPU-uuid-0", "H100", state, null, List.of(), 80L << 30, 0, null);
  }

  private static StoredEvent event(String type, Map<String, Object> fields) {
    return new StoredEvent(9, Jobs.T0, type, null, fields);
  }

  @Test
  void aDrainInForceNamesTheGpuByIndexAndUuidAndTheJobsStillRunningThere() {
    List<Job> jobs = List.of(Jobs.job(4, JobState.RUNNING), Jobs.job(5, JobState.DONE));
    StoredEvent drained = event("GpuDrained", Map.of("uuid", "GPU-uuid-0", "reason", "drained by the user"));
    assertEquals("GPU 0 (GPU-uuid-0) drained: drained by the user; job 4 keeps running there",
        ControlEvents.text(drained, List.of(gpu(GpuState.DRAINED)), jobs));
    assertEquals("GPU 0 (GPU-uuid-0) drained: drained by the user", ControlEvents.text(drained, List.of(gpu(GpuState.FREE)), jobs),
        "once given back, no job is said to be kept there");
    assertEquals("GPU 0 (GPU-uuid-0) takes new jobs again",
        ControlEvents.text(event("GpuResumed", Map.of("uuid", "GPU-uuid-0")), List.of(gpu(GpuState.FREE)), jobs));
  }

  @Test
  void heldJobsAreNamedAndOtherEventsAreLeftAsThey() {
    StoredEvent held = event("JobsHeld", Map.of("job_ids", List.of(4, 5, 6), "held", true));
    assertEquals("jobs 4-6 held by the user", ControlEvents.text(held, List.of(), List.of()));
    assertNull(ControlEvents.text(event("JobLaunched", Map.of()), List.of(), List.of()));
  }

  @Test
  void topsEventLineSaysWhichGpuWasDrained() {
    StoredEvent drained = event("GpuDrained", Map.of("uuid", "GPU-uuid-0", "reason", "for bob"));
    TopData d = new TopData(Jobs.T0, ZoneOffset.UTC, new GpuReport(List.of(gpu(GpuState.DRAINED)), "fake", true, null),
        Map.of(), Map.of(), List.of(Jobs.job(4, JobState.RUNNING)), Map.of(), Map.of(), Map.of(), Set.of(), false, List.of(),
        List.of(drained), null, List.of());
    assertEquals("GpuDrained          GPU 0 (GPU-uuid-0) drained: for bob; job 4 keeps running there",
        TopJobRows.eventText(d, drained).substring(9));
  }
}
