package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ControlTextTest {
  @Test
  void aDrainNamesTheGpuByIndexAndUuidAndTheJobsStillOnIt() {
    assertEquals("GPU 2 (GPU-8f3a) drained: drained by the user; jobs 4, 7 keep running there",
        ControlText.drained(2, "GPU-8f3a", "drained by the user", List.of(7L, 4L)));
    assertEquals("GPU 2 (GPU-8f3a) drained: unwell: Xid 79; job 4 keeps running there",
        ControlText.drained(2, "GPU-8f3a", "unwell: Xid 79", List.of(4L)));
    assertEquals("GPU GPU-8f3a drained: for bob", ControlText.drained(null, "GPU-8f3a", "for bob", List.of()),
        "a GPU gq no longer sees is named by its UUID");
    assertEquals("GPU 0 (GPU-a) takes new jobs again", ControlText.resumed(0, "GPU-a"));
  }

  @Test
  void heldJobsAreNamedWithConsecutiveIdsAsRanges() {
    assertEquals("jobs 4-6, 9 held by the user", ControlText.held(List.of(9L, 4L, 5L, 6L), true));
    assertEquals("job 12 released", ControlText.held(List.of(12L), false));
    assertEquals("jobs 1, 3, 5, 7, 9, 11, 13, 15, +2 more",
        ControlText.jobs(List.of(1L, 3L, 5L, 7L, 9L, 11L, 13L, 15L, 17L, 19L)));
  }
}
