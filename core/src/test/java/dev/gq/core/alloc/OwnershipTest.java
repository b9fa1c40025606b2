package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnershipTest {

  @Test
  void processNotVisibleInProcIsOwnedByNobody() {
    assertFalse(Ownership.owns(holding(1, JobState.RUNNING, 0), null));
  }

  @Test
  void sessionGroupOrTagEachMakeAProcessTheJobs() {
    Job j = holding(1, JobState.RUNNING, 0);
    assertTrue(Ownership.owns(j, new ProcessFacts(7, 100, 1, null)));
    assertTrue(Ownership.owns(j, new ProcessFacts(7, 1, 100, null)));
    assertTrue(Ownership.owns(j, new ProcessFacts(7, 1, 1, tag(1))));
    assertFalse(Ownership.owns(j, new ProcessFacts(7, 1, 1, null)));
    assertFalse(Ownership.owns(j, new ProcessFacts(7, 1, 1, tag(2))));
  }

  @Test
  void jobNeverLaunchedOwnsOnlyTaggedProcesses() {
    Job j = holding(1, JobState.STARTING, 0);
    assertNull(j.identity());
    assertTrue(Ownership.owns(j, new ProcessFacts(7, 7, 7, tag(1))));
    assertFalse(Ownership.owns(j, new ProcessFacts(7, 7, 7, null)));
  }

  @Test
  void ownerOfFindsTheLiveJobOrNone() {
    Job a = holding(1, JobState.RUNNING, 0);
    Job b = holding(2, JobState.RUNNING, 1);
    var facts = Map.of(200L, inJob(200, 2), 9L, stranger(9));
    assertEquals(2L, Ownership.ownerOf(200, facts, List.of(a, b)).orElseThrow().id());
    assertTrue(Ownership.ownerOf(9, facts, List.of(a, b)).isEmpty());
    assertTrue(Ownership.ownerOf(12345, facts, List.of(a, b)).isEmpty());
  }
}
