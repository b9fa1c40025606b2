package dev.gq.core.recovery;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.JobTransitions;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** An adopted job across a daemon restart: reattached while its process lives, EXITED once it is gone. */
class AdoptedRecoveryTest {
  static final Instant NOW = T0.plusSeconds(3600);

  private static Job adopted() {
    return new Job(3, new JobSpec(List.of("python"), "/", Map.of(), 1, null, null, null), JobState.RUNNING, T0, T0, null,
        slots(0), ProcessIdentity.adoptedProcess(4242, 777, BOOT), null, null, null, "tag-3", null);
  }

  private static RecoveryFacts facts(String boot, boolean alive) {
    return new RecoveryFacts(boot, Optional.empty(), alive, Optional.empty(), Set.of(uuid(0)));
  }

  @Test
  void aLiveAdoptedProcessIsWatchedAgain() {
    var v = Recovery.decide(adopted(), facts(BOOT, true), NOW);
    assertEquals(List.of(), v.events());
    assertTrue(v.watch());
  }

  @Test
  void anAdoptedProcessGoneWhileTheDaemonWasDownEndsExitedWithoutACode() {
    var v = Recovery.decide(adopted(), facts(BOOT, false), NOW);
    JobExited x = assertInstanceOf(JobExited.class, v.events().get(0));
    assertNull(x.exitCode());
    assertFalse(v.watch());
    Job end = JobTransitions.next(adopted(), x);
    assertEquals(JobState.EXITED, end.state());
    assertEquals("exit status unknown: the process was adopted", end.failureReason());
  }

  @Test
  void aRebootInterruptsIt() {
    var v = Recovery.decide(adopted(), facts("boot-2", false), NOW);
    assertInstanceOf(JobInterrupted.class, v.events().get(0));
  }
}
