package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger.SubmitOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Bulk submit: one decision, all or nothing, key skips per line, one pass over the ledger. */
class BatchTest {
  private final Driver d = new Driver();

  private static JobSpec cell(int i, String key) {
    return new JobSpec(List.of("python", "cell.py", String.valueOf(i)), "/w", Map.of(), 0, null, "sweep", key);
  }

  private Decision<List<SubmitOutcome>> batch(List<JobSpec> specs, List<Integer> lines) {
    return Submissions.batch(d.ledger, specs, lines, d.intake());
  }

  @Test
  void oneRefusedLineRefusesTheWholeBatchAndNamesTheLine() {
    JobSpec empty = new JobSpec(List.of(""), "/w", Map.of(), 0, null, null, null);
    var dec = batch(List.of(cell(1, null), cell(2, null), empty), List.of(1, 2, 7));
    assertTrue(dec.refused());
    assertTrue(dec.refusal().startsWith("line 7: the command is empty"), dec.refusal());
    assertTrue(dec.refusal().endsWith("; nothing was submitted"));
    assertTrue(dec.events().isEmpty());
  }

  @Test
  void keysAreSkippedPerLineAgainstTheLedgerAndEarlierLines() {
    long held = d.submit(cell(0, "a"));
    var dec = batch(List.of(cell(1, "a"), cell(2, "b"), cell(3, "b"), cell(4, "c")), List.of(1, 2, 3, 4));
    List<SubmitOutcome> out = dec.result();
    assertEquals(new SubmitOutcome(held, true, JobState.WAITING, "Skipped: key 'a' is already WAITING as job 1"), out.get(0));
    assertFalse(out.get(1).skipped());
    assertEquals(out.get(1).jobId(), out.get(2).jobId(), "the second 'b' line is skipped in favour of the first");
    assertTrue(out.get(2).skipped());
    assertEquals(List.of(2L, 3L), out.stream().filter(o -> !o.skipped()).map(SubmitOutcome::jobId).toList());
    assertEquals(2, dec.events().size());
  }

  @Test
  void aKeyHeldByAJobOfAHeldGroupIsSaidToBeHeld() {
    long held = d.submit(cell(0, "a"));
    d.ledger = d.ledger.apply(new LedgerEvent.GroupHeld("sweep", "3 jobs failed within 60 s", true, java.time.Instant.EPOCH));
    SubmitOutcome out = batch(List.of(cell(1, "a")), List.of(1)).result().get(0);
    assertEquals(new SubmitOutcome(held, true, JobState.WAITING,
        "Skipped: key 'a' is already HELD as job 1 (group sweep is held: 3 jobs failed within 60 s)"), out);
  }

  @Test
  void aThousandSpecsBecomeAThousandWaitingJobsInOneDecision() {
    List<JobSpec> specs = IntStream.range(0, 1000).mapToObj(i -> cell(i, "cell-" + i)).toList();
    var dec = batch(specs, IntStream.rangeClosed(1, 1000).boxed().toList());
    assertEquals(1000, dec.events().size());
    d.settle(dec.events());
    assertEquals(1000, d.ledger.waiting().size());
    assertEquals(1000, d.ledger.keys().size());
    List<Long> ids = new ArrayList<>(d.ledger.live().keySet());
    assertEquals(LongRange.of(1, 1000), ids, "live jobs iterate oldest first");
    var again = batch(specs, IntStream.rangeClosed(1, 1000).boxed().toList());
    assertTrue(again.result().stream().allMatch(SubmitOutcome::skipped), "re-running the sweep skips every cell");
  }

  /** 1..n as a list. */
  private static final class LongRange {
    static List<Long> of(long from, long to) {
      List<Long> out = new ArrayList<>();
      for (long i = from; i <= to; i++) out.add(i);
      return out;
    }
  }
}
