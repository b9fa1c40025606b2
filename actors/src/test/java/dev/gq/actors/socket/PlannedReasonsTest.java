package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.gq.core.job.WaitReason;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlannedReasonsTest {
  @Test
  void eachJobHasItsReasonAndEqualReasonsAreKeptOnce() {
    Map<Long, WaitReason> all = new HashMap<>();
    for (long id = 1; id <= 5000; id += 3) all.put(id, new WaitReason.QueueHeld());
    all.put(7L, new WaitReason.GpusBusy(2, 1, List.of()));
    PlannedReasons p = PlannedReasons.of(42, 0, all);
    for (long id = 0; id <= 5001; id++) assertEquals(all.get(id), p.get(id), "job " + id);
    assertNull(p.get(2));
    assertSame(p.get(1), p.get(4), "one instance of an equal reason");
    assertEquals(42, p.seqNr());
  }
}
