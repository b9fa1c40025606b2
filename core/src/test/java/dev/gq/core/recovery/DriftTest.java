package dev.gq.core.recovery;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class DriftTest {
  static final Instant NOW = T0.plusSeconds(60);

  private static Ledger ledger(Job... jobs) {
    TreeMap<Long, Job> live = new TreeMap<>();
    for (Job j : jobs) live.put(j.id(), j);
    return new Ledger(10, live, Map.of(), false, Map.of());
  }

  private static Recovery.Verdict ended(long id) {
    return new Recovery.Verdict(List.of(new JobInterrupted(id, "gone", NOW)), false);
  }

  @Test
  void aJobNoRunnerWatchesTakesTheWholeVerdict() {
    var v = ended(1);
    var out = Drift.actionable(ledger(holding(1, JobState.RUNNING, 0)), Map.of(1L, JobState.RUNNING), Map.of(1L, v), Set.of());
    assertEquals(Map.of(1L, v), out);
  }

  @Test
  void anAliveJobNoRunnerWatchesIsHandedToANewRunner() {
    var v = new Recovery.Verdict(List.of(), true);
    var out = Drift.actionable(ledger(holding(1, JobState.RUNNING, 0)), Map.of(1L, JobState.RUNNING), Map.of(1L, v), Set.of());
    assertEquals(Map.of(1L, v), out);
  }

  @Test
  void aJobARunnerWatchesIsTheRunners() {
    var out = Drift.actionable(ledger(holding(1, JobState.RUNNING, 0)), Map.of(1L, JobState.RUNNING),
        Map.of(1L, ended(1)), Set.of(1L));
    assertTrue(out.isEmpty(), out.toString());
  }

  @Test
  void ofAWatchedOrphanOnlyItsReturnIsKept() {
    Ledger l = ledger(holding(1, JobState.ORPHANED, 0), holding(2, JobState.ORPHANED, 1));
    var back = new Recovery.Verdict(List.of(new JobRecovered(1, NOW)), true);
    var out = Drift.actionable(l, Map.of(1L, JobState.ORPHANED, 2L, JobState.ORPHANED),
        Map.of(1L, back, 2L, ended(2)), Set.of(1L, 2L));
    assertEquals(Map.of(1L, new Recovery.Verdict(List.<LedgerEvent>of(new JobRecovered(1, NOW)), false)), out);
  }

  @Test
  void aWatchedJobWhoseGpuIsGoneIsOrphanedAndStaysTheRunners() {
    var f = new RecoveryFacts(BOOT, java.util.Optional.empty(), true, java.util.Optional.empty(), Set.of(uuid(1)));
    Job running = holding(1, JobState.RUNNING, 0);
    var v = Recovery.recheck(running, f, NOW);
    var out = Drift.actionable(ledger(running), Map.of(1L, JobState.RUNNING), Map.of(1L, v), Set.of(1L));
    assertEquals(1, out.size(), out.toString());
    assertInstanceOf(JobOrphaned.class, out.get(1L).events().get(0));
    assertFalse(out.get(1L).watch(), "its runner already watches it");
  }

  @Test
  void aJobThatChangedOrEndedSinceThePassIsSkipped() {
    Ledger l = ledger(holding(1, JobState.CANCELLING, 0));
    var out = Drift.actionable(l, Map.of(1L, JobState.RUNNING, 2L, JobState.RUNNING),
        Map.of(1L, ended(1), 2L, ended(2)), Set.of());
    assertTrue(out.isEmpty(), out.toString());
  }

  @Test
  void recheckSaysTheJobEndedUnwatchedNotWhileTheDaemonWasDown() {
    var f = new RecoveryFacts(BOOT, java.util.Optional.empty(), false, java.util.Optional.empty(), Set.of(uuid(0)));
    var v = Recovery.recheck(holding(1, JobState.ORPHANED, 0), f, NOW);
    JobInterrupted e = assertInstanceOf(JobInterrupted.class, v.events().get(0));
    assertTrue(e.reason().contains("no runner watched"), e.reason());
  }
}
