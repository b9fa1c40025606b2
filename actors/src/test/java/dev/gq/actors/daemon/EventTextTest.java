package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import dev.gq.core.ledger.LedgerEvent.QueuePaused;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The daemon log's lines for a write: one an event, but a batch's many submissions in one line. */
class EventTextTest {
  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");

  private static List<LedgerEvent> submissions(int n) {
    List<LedgerEvent> out = new ArrayList<>();
    for (long id = 1; id <= n; id++)
      out.add(new JobSubmitted(id, new JobSpec(List.of("train", "--cell", "" + id), "/", Map.of(), 1, null, null, null),
          "t" + id, "/l/" + id, null, T));
    return out;
  }

  @Test
  void aFewSubmissionsAreOneLineEach() {
    List<LedgerEvent> events = submissions(EventText.SUBMITTED_ONE_BY_ONE);
    assertEquals(events.stream().map(EventText::of).toList(), EventText.lines(events));
  }

  @Test
  void aBatchsSubmissionsAreOneLineWhereTheFirstWasAndTheOtherEventsTheirOwn() {
    List<LedgerEvent> events = new ArrayList<>(List.of(new QueuePaused(T)));
    events.addAll(submissions(20_000));
    events.add(new LedgerEvent.JobReserved(20_000, List.of(), T));
    List<String> lines = EventText.lines(events);
    assertEquals(List.of("queue held",
        "20000 jobs submitted in one write, the first job 1: submitted, 1 GPU(s), argv [train, --cell, 1]; the last job 20000"
            + " ('gq events' shows each)",
        "job 20000: reserved GPU(s) []"), lines);
  }
}
