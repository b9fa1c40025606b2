package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class QueueOrderTest {
  private static Job job(long id, JobState state, int priority) {
    JobSpec spec = new JobSpec(List.of("true"), "/w", Map.of(), 1, null, null, null).withPriority(priority);
    return new Job(id, spec, state, Instant.EPOCH, null, null, List.of(), null, null, null, null, "t" + id, null);
  }

  @Test
  void higherPriorityFirstThenTheOldestAndOnlyWaitingJobsHaveAPlace() {
    List<Job> jobs = List.of(job(1, JobState.RUNNING, 50), job(2, JobState.WAITING, 0), job(3, JobState.WAITING, 5),
        job(4, JobState.WAITING, 0), job(5, JobState.WAITING, 5), job(6, JobState.DONE, 9));
    assertEquals(List.of(3L, 5L, 2L, 4L), QueueOrder.sorted(jobs).stream().map(Job::id).toList());
    assertEquals(Map.of(3L, 1, 5L, 2, 2L, 3, 4L, 4), QueueOrder.positions(jobs));
  }

  @Test
  void aNegativePriorityGoesBehindTheRest() {
    List<Job> jobs = List.of(job(1, JobState.WAITING, -3), job(2, JobState.WAITING, 0));
    assertEquals(Map.of(2L, 1, 1L, 2), QueueOrder.positions(jobs));
  }

  @Test
  void thePlacesOfSomeJobsAreTheirPlacesInTheWholeQueue() {
    Random random = new Random(3);
    List<Job> jobs = new ArrayList<>();
    for (long id = 1; id <= 2000; id++)
      jobs.add(job(id, random.nextInt(8) == 0 ? JobState.RUNNING : JobState.WAITING, random.nextInt(3) == 0 ? random.nextInt(9) - 4 : 0));
    Map<Long, Integer> all = QueueOrder.positions(jobs);
    List<Long> asked = List.of(1L, 7L, 500L, 999L, 1000L, 1500L, 2000L, 4000L);
    Map<Long, Integer> want = new HashMap<>();
    for (long id : asked) if (all.containsKey(id)) want.put(id, all.get(id));
    assertEquals(want, QueueOrder.positions(jobs, asked));
    assertEquals(Map.of(), QueueOrder.positions(jobs, List.of()));
  }
}
