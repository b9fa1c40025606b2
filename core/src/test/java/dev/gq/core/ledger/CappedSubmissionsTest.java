package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Ledger.SubmitOutcome;
import dev.gq.core.ledger.LedgerEvent.*;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CappedSubmissionsTest {
  private static final SubmitContext IN = new SubmitContext(T0, () -> "tag", id -> "/logs/" + id + ".log", 4, null, Map.of());

  private static JobSpec inGroup(String group) {
    return new JobSpec(List.of("true"), "/tmp", Map.of(), 1, null, group, null);
  }

  private static Ledger apply(Ledger l, List<LedgerEvent> events) {
    for (LedgerEvent e : events) l = l.apply(e);
    return l;
  }

  @Test
  void theCapIsSetInTheSameWriteAsTheJobAndSaidOnce() {
    var d = CappedSubmissions.one(Ledger.empty(), inGroup("sweep"), 2, IN);
    assertEquals(List.of(GroupLimitSet.class, JobSubmitted.class), d.events().stream().map(Object::getClass).toList(),
        "the cap comes first: no job of the group can start past it");
    assertEquals("Group sweep: at most 2 of its jobs at once.", d.result().queueing().capLine());
    Ledger l = apply(Ledger.empty(), d.events());
    assertEquals(2, l.settings().maxRunning().get("sweep"));
    var again = CappedSubmissions.one(l, inGroup("sweep"), 2, IN);
    assertEquals(List.of(JobSubmitted.class), again.events().stream().map(Object::getClass).toList());
    assertNull(again.result().queueing().capLine(), "the same cap again says nothing");
  }

  @Test
  void aRefusedSubmitSetsNoCap() {
    var big = new JobSpec(List.of("true"), "/tmp", Map.of(), 8, null, "sweep", null);
    var d = CappedSubmissions.one(Ledger.empty(), big, 2, IN);
    assertTrue(d.refused());
    assertTrue(d.events().isEmpty());
    assertTrue(CappedSubmissions.one(Ledger.empty(), inGroup(null), 2, IN).refusal().startsWith("--max-running caps a group"));
    assertTrue(CappedSubmissions.one(Ledger.empty(), inGroup("g"), 0, IN).refused());
  }

  @Test
  void theAnswerSaysWhatKeepsTheJobWaiting() {
    Ledger l = apply(Ledger.empty(), List.of(new QueuePaused(T0), new GroupHeld("sweep", "held by the user", false, T0)));
    SubmitOutcome held = CappedSubmissions.one(l, inGroup("sweep"), null, IN).result();
    assertTrue(held.queueing().queueHeld());
    assertEquals("held by the user", held.queueing().groupHold());
    SubmitOutcome free = CappedSubmissions.one(Ledger.empty(), inGroup("other"), null, IN).result();
    assertEquals(Queueing.FREE, free.queueing());
  }

  @Test
  void aBatchSetsItsGroupsCapWithItsJobsAllOrNothing() {
    var d = CappedSubmissions.batch(Ledger.empty(), List.of(inGroup("s"), inGroup("s")), List.of(1, 2), "s", 3, IN);
    assertEquals(List.of(GroupLimitSet.class, JobSubmitted.class, JobSubmitted.class),
        d.events().stream().map(Object::getClass).toList());
    assertEquals("Group s: at most 3 of its jobs at once.", d.result().get(0).queueing().capLine());
    var refused = CappedSubmissions.batch(Ledger.empty(), List.of(inGroup("s"), new JobSpec(List.of(), "/tmp", Map.of(), 1, null,
        "s", null)), List.of(1, 2), "s", 3, IN);
    assertTrue(refused.refused());
    assertTrue(refused.events().isEmpty(), "a refused batch sets no cap");
  }
}
