package dev.gq.core.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.health.PartStatus.State;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class PartStatusTest {
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void aWorkingPartSaysWhenItLastDidItsWork() {
    assertEquals("gpu watcher: ok, last reading 0.4 s ago",
        new PartStatus("gpu watcher", State.OK, "reading", NOW.minusMillis(400), null, null, 0).line(NOW));
    assertEquals("reconciler: ok, no pass yet",
        new PartStatus("reconciler", State.OK, "pass", null, null, null, 0).line(NOW));
    assertEquals("notifier: ok, last pass 3 min ago, restarted 1 time",
        new PartStatus("notifier", State.OK, "pass", NOW.minusSeconds(200), null, null, 1).line(NOW));
  }

  @Test
  void aFailingOrRestartingPartSaysWhy() {
    assertEquals("history: failing for 12 s (cannot write the job history: disk full), last update 40 s ago",
        new PartStatus("history", State.FAILING, "update", NOW.minusSeconds(40),
            "cannot write the job history: disk full", NOW.minusSeconds(12), 0).line(NOW));
    assertEquals("history: restarting after failure (boom), last update 2 h ago, restarted 2 times",
        new PartStatus("history", State.RESTARTING, "update", NOW.minusSeconds(7300), "boom", NOW, 2).line(NOW));
    assertEquals("scheduler: stopped after failure (boom)",
        new PartStatus("scheduler", State.STOPPED, "request", null, "boom", NOW, 0).line(NOW));
  }
}
