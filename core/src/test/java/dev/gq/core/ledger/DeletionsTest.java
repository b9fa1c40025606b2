package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which jobs 'gq rm' and 'gq clean' delete: ended ones only, as one event naming every id. */
class DeletionsTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = T.plusSeconds(3600);

  private static HistoryFact ended(long id, JobState s, Instant at) {
    return new HistoryFact(id, s, at);
  }

  /** Job 9 is live (waiting) in the ledger. */
  private static Ledger withLiveJob() {
    return Ledger.empty().apply(new JobSubmitted(9, new JobSpec(List.of("a"), "/", Map.of(), 1, null, null, null), "t", "/l/9",
        null, T));
  }

  @Test
  void removeDeletesEachNamedEndedJobOnceInOneEvent() {
    var facts = Map.of(3L, ended(3, JobState.DONE, T), 1L, ended(1, JobState.FAILED, T));
    Decision<List<Long>> d = Deletions.remove(Ledger.empty(), List.of(3L, 1L, 3L), facts, NOW);
    assertEquals(List.of(1L, 3L), d.result());
    assertEquals(List.of(new JobsRemoved(List.of(1L, 3L), NOW)), d.events());
  }

  @Test
  void removeRefusesAllWithTheFirstMissingOrUnendedJob() {
    var facts = Map.of(1L, ended(1, JobState.DONE, T), 2L, new HistoryFact(2, JobState.ORPHANED, null));
    assertEquals("job 5 does not exist; nothing was deleted",
        Deletions.remove(Ledger.empty(), List.of(1L, 5L, 2L), facts, NOW).refusal());
    assertEquals("job 2 is ORPHANED and cannot be deleted: it still holds its GPUs; see 'gq show 2'",
        Deletions.remove(Ledger.empty(), List.of(1L, 2L, 5L), facts, NOW).refusal());
    assertTrue(Deletions.remove(Ledger.empty(), List.of(2L), facts, NOW).events().isEmpty());
  }

  @Test
  void aJobLiveInTheLedgerIsNeverDeletedWhateverTheHistorySaid() {
    var stale = Map.of(9L, ended(9, JobState.DONE, T));
    assertEquals("job 9 is WAITING and cannot be deleted; cancel it first",
        Deletions.remove(withLiveJob(), List.of(9L), stale, NOW).refusal());
    assertTrue(Deletions.clean(withLiveJob(), List.of(ended(9, JobState.DONE, T)), Set.of(), NOW, NOW).events().isEmpty());
  }

  @Test
  void cleanTakesEndedJobsOfTheChosenStatesThatEndedBeforeTheTime() {
    List<HistoryFact> page = List.of(ended(4, JobState.FAILED, T), ended(2, JobState.DONE, T),
        ended(5, JobState.DONE, NOW), new HistoryFact(6, JobState.RUNNING, null), ended(7, JobState.CANCELLED, T));
    Decision<List<Long>> any = Deletions.clean(Ledger.empty(), page, Set.of(), NOW, NOW);
    assertEquals(List.of(2L, 4L, 7L), any.result());
    assertEquals(List.of(new JobsRemoved(List.of(2L, 4L, 7L), NOW)), any.events());
    assertEquals(List.of(4L), Deletions.clean(Ledger.empty(), page, Set.of(JobState.FAILED), NOW, NOW).result());
  }

  @Test
  void cleanOfAPageWithNothingToDeleteWritesNothing() {
    Decision<List<Long>> d = Deletions.clean(Ledger.empty(), List.of(ended(1, JobState.DONE, NOW)), Set.of(), NOW, NOW);
    assertTrue(d.events().isEmpty());
    assertEquals(List.of(), d.result());
  }
}
