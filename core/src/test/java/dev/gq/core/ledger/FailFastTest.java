package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fail-fast holds: the last COUNT ended jobs of a group all failed within SECONDS of starting. */
class FailFastTest {
  private static final Duration QUICK = Duration.ofSeconds(2);
  private static final Duration SLOW = Duration.ofMinutes(5);
  private final Driver d = new Driver();

  private long cell(String group) {
    return d.submit(new JobSpec(List.of("python", "cell.py"), "/w", Map.of(), 0, null, group, null));
  }

  private List<GroupHeld> holds() {
    return d.lastOf(GroupHeld.class);
  }

  @Test
  void threeQuickFailuresInARowHoldTheGroupAndItsWaitingJobs() {
    long a = cell("g"), b = cell("g"), c = cell("g"), waiting = cell("g");
    d.run(a, 1, QUICK);
    d.run(b, 1, QUICK);
    assertTrue(holds().isEmpty());
    d.run(c, 1, QUICK);
    GroupHeld h = holds().get(0);
    assertEquals("g", h.group());
    assertTrue(h.automatic());
    assertEquals("3 jobs in a row failed within 60 s of starting (1, 2, 3): exited with status 1", h.reason());
    assertEquals("group g is held: " + h.reason(), d.blocked(waiting));
    assertEquals(java.util.Set.of("g"), d.ledger.autoHeld());
  }

  @Test
  void aSuccessBreaksTheRun() {
    long a = cell("g"), b = cell("g"), ok = cell("g"), c = cell("g"), e = cell("g"), f = cell("g");
    d.run(a, 1, QUICK);
    d.run(b, 1, QUICK);
    d.run(ok, 0, QUICK);
    d.run(c, 1, QUICK);
    d.run(e, 1, QUICK);
    assertTrue(holds().isEmpty(), "only two failures since the success");
    d.run(f, 1, QUICK);
    assertEquals("3 jobs in a row failed within 60 s of starting (4, 5, 6): exited with status 1", holds().get(0).reason());
  }

  @Test
  void cancelledJobsNeitherCountNorBreakTheRun() {
    long a = cell("g"), b = cell("g"), cancelled = cell("g"), c = cell("g");
    d.run(a, 1, QUICK);
    d.run(b, 1, QUICK);
    d.start(cancelled);
    d.settle(d.ledger.cancel(List.of(cancelled), d.now));
    d.exit(cancelled, 143);
    assertTrue(holds().isEmpty());
    d.run(c, 1, QUICK);
    assertEquals("3 jobs in a row failed within 60 s of starting (1, 2, 4): exited with status 1", holds().get(0).reason());
  }

  @Test
  void aSlowFailureBreaksTheRun() {
    long a = cell("g"), b = cell("g"), slow = cell("g");
    d.run(a, 1, QUICK);
    d.run(b, 1, QUICK);
    d.run(slow, 1, SLOW);
    assertTrue(holds().isEmpty());
  }

  @Test
  void failuresConcludedByRecoveryCountButNeverHold() {
    long a = cell("g"), b = cell("g"), c = cell("g"), e = cell("g");
    for (long id : List.of(a, b, c)) {
      d.start(id);
      d.settle(List.of(new JobExited(id, 1, null, d.now.plus(QUICK))), true);
      assertTrue(holds().isEmpty());
    }
    d.run(e, 1, QUICK);
    assertEquals("3 jobs in a row failed within 60 s of starting (2, 3, 4): exited with status 1", holds().get(0).reason());
  }

  @Test
  void aReleaseStartsTheRunAfresh() {
    long a = cell("g"), b = cell("g"), c = cell("g"), e = cell("g"), f = cell("g"), g = cell("g");
    d.run(a, 1, QUICK);
    d.run(b, 1, QUICK);
    d.run(c, 1, QUICK);
    d.settle(List.of(new GroupReleased("g", d.now)));
    assertTrue(d.ledger.autoHeld().isEmpty());
    d.run(e, 1, QUICK);
    d.run(f, 1, QUICK);
    assertTrue(holds().isEmpty(), "only failures after the release count");
    d.run(g, 1, QUICK);
    assertEquals(1, holds().size());
  }

  @Test
  void launchFailuresCountAndAHeldGroupIsNotHeldAgain() {
    long a = cell("g"), b = cell("g"), c = cell("g"), e = cell("g");
    for (long id : List.of(a, b, c)) {
      d.settle(List.of(new JobReserved(id, List.of(), d.now)));
      d.settle(List.of(new JobLaunchFailed(id, "cannot run the command", d.now)));
    }
    assertEquals(1, holds().size());
    d.settle(List.of(new JobReserved(e, List.of(), d.now)));
    d.settle(List.of(new JobLaunchFailed(e, "cannot run the command", d.now)));
    assertTrue(holds().isEmpty());
  }

  @Test
  void theHoldNamesTheFailureItsJobsShare() {
    long a = cell("g"), b = cell("g"), c = cell("g");
    String why = "cannot run 'uv': No such file or directory";
    for (long id : List.of(a, b, c)) {
      d.start(id);
      d.settle(List.of(new JobExited(id, 127, why, d.now)));
    }
    assertEquals("3 jobs in a row failed within 60 s of starting (1, 2, 3): " + why, holds().get(0).reason());
  }

  @Test
  void failuresOfDifferentKindsAreNotNamed() {
    long a = cell("g"), b = cell("g"), c = cell("g");
    d.run(a, 1, QUICK);
    d.run(b, 2, QUICK);
    d.run(c, 1, QUICK);
    assertEquals("3 jobs in a row failed within 60 s of starting (1, 2, 3)", holds().get(0).reason());
  }

  @Test
  void aLongOrMultiLineFailureIsQuotedOnOneBoundedLine() {
    String why = "cannot run '" + "x".repeat(300) + "\nspoof': No such file or directory";
    for (int i = 0; i < 3; i++) {
      long id = cell("g");
      d.start(id);
      d.settle(List.of(new JobLaunchFailed(id, why, d.now)));
    }
    String reason = holds().get(0).reason();
    assertFalse(reason.contains("\n"), reason);
    String quoted = reason.substring(reason.indexOf("): ") + 3);
    assertEquals(FailFast.REASON_CHARS, quoted.length());
    assertTrue(quoted.startsWith("cannot run 'xxx") && quoted.endsWith("..."), quoted);
  }

  @Test
  void ungroupedJobsAndADisabledRuleHoldNothing() {
    for (int i = 0; i < 4; i++) d.run(cell(null), 1, QUICK);
    assertTrue(d.written.stream().noneMatch(GroupHeld.class::isInstance));
    d.rule = FailFast.OFF;
    for (int i = 0; i < 4; i++) d.run(cell("g"), 1, QUICK);
    assertTrue(d.written.stream().noneMatch(GroupHeld.class::isInstance));
  }

  @Test
  void theCountAndTheThresholdComeFromTheRule() {
    d.rule = new FailFast(2, Duration.ofSeconds(1));
    long a = cell("g"), b = cell("g"), c = cell("g");
    d.run(a, 1, QUICK);
    d.run(b, 1, Duration.ofMillis(500));
    assertTrue(holds().isEmpty(), "job 1 ran 2 s, not under 1 s");
    d.run(c, 1, Duration.ofMillis(500));
    assertEquals("2 jobs in a row failed within 1 s of starting (2, 3): exited with status 1", holds().get(0).reason());
  }

  @Test
  void theLedgerKeepsABoundedRunPerGroupAndNothingForSuccessfulGroups() {
    for (int i = 0; i < FailFast.MAX_COUNT + 50; i++) d.run(cell("g"), 1, SLOW);
    assertEquals(FailFast.MAX_COUNT, d.ledger.streaks().get("g").size());
    d.run(cell("g"), 0, SLOW);
    assertTrue(d.ledger.streaks().isEmpty());
    assertTrue(d.ledger.live().isEmpty());
    assertTrue(d.ledger.recentEnds().size() <= Ledger.RECENT);
  }

  @Test
  void holdsAndRunsSurviveAReplay() {
    for (int i = 0; i < 3; i++) d.run(cell("g"), 1, QUICK);
    d.run(cell("h"), 1, QUICK);
    Ledger replayed = d.replayed();
    assertEquals(d.ledger, replayed);
    assertEquals(d.ledger.holds(), replayed.holds());
    assertEquals(1, replayed.streaks().get("h").size());
  }
}
