package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.recovery.JobIdRanges;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LostHistoryTest {
  @Test
  void theRefusalAdvisesOnlyWhatGqAllowsForJobsThatStillRun() {
    String line = LostHistory.refusal(Path.of("/d/gq.db"), Path.of("/d/logs"), Path.of("/d/run"),
        JobIdRanges.of(new long[] {21, 22}), 21, Map.of(22L, 4242L));
    assertTrue(line.contains("2 jobs (21 to 22)"), line);
    assertTrue(line.contains("shim pid 4242 for job 22"), line);
    // gq adopt refuses a gq job's shim and its processes: the line must not send the user there
    assertFalse(line.contains("gq adopt"), line);
    assertTrue(line.contains("'kill -- -PID'"), line);
    assertFalse(line.contains("\n"), "one line");
  }

  @Test
  void withNothingRunningTheRefusalSaysNothingAboutStoppingJobs() {
    String line = LostHistory.refusal(Path.of("/d/gq.db"), Path.of("/d/logs"), Path.of("/d/run"),
        JobIdRanges.of(new long[] {5}), 5, Map.of());
    assertTrue(line.contains("job 5"), line);
    assertFalse(line.contains("kill"), line);
  }
}
