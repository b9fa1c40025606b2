package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.ledger.FailFast;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The daemon's settings: defaults, values, 0 to turn fail-fast off, and one line naming a bad value. */
class DaemonConfigTest {

  private static DaemonConfig with(String... pairs) {
    Map<String, String> env = new HashMap<>(Map.of("GQ_DATA_DIR", "/tmp/gq-config-test"));
    for (int i = 0; i < pairs.length; i += 2) env.put(pairs[i], pairs[i + 1]);
    return DaemonConfig.fromEnvironment(env, "/bin/true");
  }

  @Test
  void failFastDefaultsToThreeJobsWithinSixtySeconds() {
    assertEquals(FailFast.DEFAULT, with().failFast());
    assertEquals(new FailFast(3, Duration.ofSeconds(60)), with().failFast());
  }

  @Test
  void failFastIsReadFromTheEnvironmentAndZeroTurnsItOff() {
    assertEquals(new FailFast(5, Duration.ofSeconds(10)), with("GQ_FAIL_FAST_COUNT", "5", "GQ_FAIL_FAST_SECONDS", "10").failFast());
    assertTrue(with("GQ_FAIL_FAST_COUNT", "0").failFast().off());
    assertTrue(with("GQ_FAIL_FAST_SECONDS", "0").failFast().off());
  }

  @Test
  void aBadValueStopsStartUpWithALineNamingTheVariableAndItsBounds() {
    var e = assertThrows(IllegalArgumentException.class, () -> with("GQ_FAIL_FAST_COUNT", "many"));
    assertEquals("GQ_FAIL_FAST_COUNT=many is not valid; use a whole number of jobs between 0 and 100 (0 turns fail-fast holds off)",
        e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> with("GQ_FAIL_FAST_SECONDS", "-1"));
    assertTrue(e.getMessage().startsWith("GQ_FAIL_FAST_SECONDS=-1 is not valid; use a whole number of seconds between 0 and 86400"));
  }

  @Test
  void aBadCapOnCpuJobsIsNamedWithoutTheFailFastNote() {
    var e = assertThrows(IllegalArgumentException.class, () -> with("GQ_MAX_CPU_JOBS", "0"));
    assertTrue(e.getMessage().startsWith("GQ_MAX_CPU_JOBS=0 is not valid; use a whole number of jobs between 1 and"), e.getMessage());
    assertFalse(e.getMessage().contains("fail-fast"), e.getMessage());
  }

  @Test
  void theHeadroomOnASharedGpuIsOneGibibyteUnlessSetAsASize() {
    assertEquals(1024, with().shareHeadroomMiB());
    assertEquals(1908, with("GQ_SHARE_HEADROOM", "2G").shareHeadroomMiB());
    assertEquals(512, with("GQ_SHARE_HEADROOM", "512MiB").shareHeadroomMiB());
    assertEquals(0, with("GQ_SHARE_HEADROOM", "0").shareHeadroomMiB());
    var e = assertThrows(IllegalArgumentException.class, () -> with("GQ_SHARE_HEADROOM", "2"));
    assertEquals("GQ_SHARE_HEADROOM=2 is not valid; give a size such as 1GiB, 2G or 512M (0 for none, at most 64GiB)", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> with("GQ_SHARE_HEADROOM", "65GiB"));
  }

  @Test
  void reconciliationRunsEveryThirtySecondsUnlessSetWithinItsBounds() {
    assertEquals(Duration.ofSeconds(30), with().reconcileInterval());
    assertEquals(Duration.ofMillis(500), with("GQ_RECONCILE_INTERVAL_MS", "500").reconcileInterval());
    var e = assertThrows(IllegalArgumentException.class, () -> with("GQ_RECONCILE_INTERVAL_MS", "0"));
    assertEquals("GQ_RECONCILE_INTERVAL_MS=0 is not valid; use milliseconds between 100 and 3600000", e.getMessage());
  }

  @Test
  void aJobIsIdleAfterThirtyMinutesUnlessSetAndZeroNeverMarksOne() {
    assertEquals(Duration.ofMinutes(30), with().idleAfter());
    assertEquals(Duration.ofSeconds(90), with("GQ_IDLE_AFTER_SECONDS", "90").idleAfter());
    assertEquals(Duration.ZERO, with("GQ_IDLE_AFTER_SECONDS", "0").idleAfter());
    var e = assertThrows(IllegalArgumentException.class, () -> with("GQ_IDLE_AFTER_SECONDS", "soon"));
    assertEquals("GQ_IDLE_AFTER_SECONDS=soon is not valid; use a whole number of seconds between 0 and 2592000"
        + " (0 never marks a job idle)", e.getMessage());
  }

  @Test
  void clientsAndStreamsAreAutomaticUnlessSetAndABadNumberIsNamed() {
    assertEquals(0, with().maxClients());
    assertEquals(0, with().maxStreams());
    assertEquals(300, with("GQ_MAX_STREAMS", "300").maxStreams());
    assertEquals(0, with("GQ_MAX_STREAMS", "300").maxClients());
    var e = assertThrows(IllegalArgumentException.class, () -> with("GQ_MAX_STREAMS", "-1"));
    assertEquals("GQ_MAX_STREAMS=-1 is not valid; use a whole number of streams between 0 and 10000"
        + " (0 lets the daemon's open-file limit decide)", e.getMessage());
  }
}
