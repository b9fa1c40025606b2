package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** After fail-fast held a sweep, a retry releases it whether or not the sweep was submitted again first. */
class RetryAfterHoldTest {
  private final Driver d = new Driver();
  private final List<Job> failed = new ArrayList<>();

  private long cell(int i) {
    return d.submit(new JobSpec(List.of("uv", "run", "train.py"), "/w", Map.of(), 0, null, "sweep", "cell-" + i));
  }

  /** Three cells fail at once, which holds the group; a fourth waits, held. */
  private void heldSweep() {
    for (int i = 0; i < 4; i++) cell(i);
    for (long id = 1; id <= 3; id++) {
      d.run(id, 1, Duration.ofSeconds(1));
      failed.add(new Job(id, new JobSpec(List.of("uv"), "/w", Map.of(), 0, null, "sweep", "cell-" + (id - 1)),
          JobState.FAILED, d.now, d.now, d.now, List.of(), null, 1, "/logs/" + id + ".log", "exited with status 1", "t", null));
    }
    assertTrue(d.ledger.autoHeld().contains("sweep"));
  }

  private Decision<Retries.Outcome> retry(List<Job> originals, String group) {
    Decision<Retries.Outcome> dec = Retries.decide(d.ledger, originals, Set.of(JobState.FAILED), group, d.intake());
    d.settle(dec.events());
    return dec;
  }

  @Test
  void retryingTheGroupRetriesItsFailedCellsAndReleasesIt() {
    heldSweep();
    var dec = retry(failed, "sweep");
    assertEquals(3, dec.result().retried().size());
    assertEquals(List.of("sweep"), dec.result().released());
    assertTrue(d.ledger.holds().isEmpty());
  }

  @Test
  void retryingTheGroupAfterTheSweepWasSubmittedAgainReleasesItWithNothingToRetry() {
    heldSweep();
    for (int i = 0; i < 4; i++) cell(i); // keys of the failed cells are free: jobs 5, 6, 7 wait, held
    assertEquals(List.of(4L, 5L, 6L, 7L), d.ledger.waiting().stream().map(Job::id).sorted().toList());
    var dec = retry(List.of(), "sweep");
    assertEquals(List.of("sweep"), dec.result().released());
    assertTrue(d.ledger.holds().isEmpty());
    assertTrue(d.ledger.blocked().isEmpty(), "every waiting cell may start");
  }

  @Test
  void retryingTheFailedJobsByIdAfterTheSweepWasSubmittedAgainReleasesTheGroupAndSaysWhy() {
    heldSweep();
    for (int i = 0; i < 3; i++) cell(i);
    var dec = retry(failed, null);
    assertEquals(List.of(), dec.result().retried());
    assertEquals("job 1: its key 'cell-0' is already WAITING as job 5", dec.result().skipped().get(0).reason());
    assertEquals(List.of("sweep"), dec.result().released());
    assertTrue(d.ledger.holds().isEmpty());
  }

  @Test
  void aHoldTheUserSetIsReleasedOnlyByARetryThatLandsInIt() {
    cell(0);
    d.settle(List.of(new GroupHeld("sweep", "paused by user", false, d.now)));
    assertTrue(retry(List.of(), "sweep").events().isEmpty());
    assertEquals("paused by user", d.ledger.holds().get("sweep"));
  }
}
