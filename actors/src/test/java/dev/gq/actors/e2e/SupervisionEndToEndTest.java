package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon notices when one of its parts fails: the real daemon, with failures injected through
 * its test hook (GQ_TEST_FAULT_DIR), recovers each part that can start again and keeps doing its
 * work, checks a job whose runner failed at once, and stops saying why when its Scheduler fails,
 * never answering requests while no longer doing its work.
 */
class SupervisionEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  private static Map<String, String> faults(Path dir, String reconcileMs) throws Exception {
    Files.createDirectories(dir);
    return Map.of("GQ_TEST_FAULT_DIR", dir.toString(), "GQ_RECONCILE_INTERVAL_MS", reconcileMs);
  }

  /** The line of `gq daemon status` about {@code part}. */
  private static String part(Gqd g, String part) {
    Gqd.Result r = g.gq("daemon", "status");
    assertEquals(0, r.code(), r.toString());
    return r.out().lines().map(String::strip).map(l -> l.startsWith("Parts:") ? l.substring(6).strip() : l)
        .filter(l -> l.startsWith(part + ": ")).findFirst().orElseThrow(() -> new AssertionError("no " + part + " in " + r.out()));
  }

  @Test
  void eachPartThatFailsIsStartedAgainAndKeepsDoingItsWork() throws Exception {
    Path dir = tmp.resolve("faults");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, faults(dir, "300"))) {
      Gqd.await("every part to have worked", T, () -> !g.gq("daemon", "status").out().contains(" yet"));
      assertTrue(part(g, "gpu watcher").matches("gpu watcher: ok, last reading [0-9.]+ s ago"), part(g, "gpu watcher"));
      Map<String, String> parts = Map.of("gpu-watcher", "gpu watcher", "projector", "history", "reconciler", "reconciler",
          "notifier", "notifier", "cluster-bridge", "cluster bridge", "gpu-timeline", "gpu timeline");
      for (var p : parts.entrySet()) {
        Files.writeString(dir.resolve(p.getKey()), "");
        // the history and the notifier act on stored events: a job makes some
        g.submit("-g", "0", "true");
        Gqd.await(p.getValue() + " to fail and start again", T, () -> !Files.exists(dir.resolve(p.getKey()))
            && part(g, p.getValue()).startsWith(p.getValue() + ": ok, last ") && part(g, p.getValue()).endsWith(", restarted 1 time"));
        assertTrue(g.daemonLog().contains(p.getValue() + " failed (" + p.getValue() + ": failure injected for a test); starting it again"),
            g.daemonLog());
      }
      // every part does its work again: a GPU job runs on the GPU read after the restarts, and its end reaches the history
      long id = g.submit("-g", "1", "sh", "-c", "exit 3");
      JsonNode ended = g.awaitState(id, "FAILED", T);
      assertEquals(3, ended.get("exit_code").asInt());
      Gqd.await("the GPU to be free again", T, () -> g.gpuState(0).equals("FREE"));
      Gqd.await("the history to have the job", T, () -> inHistory(g, id));
      assertTrue(g.process().isAlive());
    }
  }

  /** Whether `gq ps --all` (served from the history for ended jobs) lists job {@code id}. */
  private static boolean inHistory(Gqd g, long id) {
    return listed(g, id, "ps", "--all", "--json");
  }

  private static boolean listed(Gqd g, long id, String... argv) {
    for (JsonNode j : g.gq(argv).json()) if (j.get("id").asLong() == id) return true;
    return false;
  }

  @Test
  void aJobWhoseRunnerFailsIsCheckedAtOnceAndKeepsItsExitStatus() throws Exception {
    Path dir = tmp.resolve("faults");
    // an hour between periodic passes: only the check made at once can find the job again
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, faults(dir, "3600000"))) {
      Path go = tmp.resolve("go");
      long id = g.submit("-g", "1", "sh", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 5");
      g.awaitState(id, "RUNNING", T);
      // the runner's next message is the news that the job's main process ended: it fails on it
      Files.writeString(dir.resolve("job-runner"), "");
      Files.writeString(go, "");
      JsonNode ended = g.awaitState(id, "FAILED", T);
      assertTrue(g.daemonLog().contains(
          "job " + id + ": its runner failed (job runner: failure injected for a test); checking the job now"), g.daemonLog());
      assertTrue(g.daemonLog().contains(
          "job " + id + ": its runner stopped without reporting the job's end; checking the job now"), g.daemonLog());
      assertEquals(5, ended.get("exit_code").asInt(), ended.toString());
      Gqd.await("the GPU to be free again", T, () -> g.gpuState(0).equals("FREE"));
    }
  }

  @Test
  void aSchedulerThatFailsStopsTheDaemonAndTheNextOneSaysWhy() throws Exception {
    Path dir = tmp.resolve("faults");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, faults(dir, "300"))) {
      Path go = tmp.resolve("go");
      long id = g.submit("-g", "1", "sh", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 4");
      g.awaitState(id, "RUNNING", T);
      // the GPU watcher's next reading reaches the Scheduler, which fails on it
      Files.writeString(dir.resolve("scheduler"), "");
      assertTrue(g.process().waitFor(T.toSeconds(), TimeUnit.SECONDS), "the daemon stops");
      assertEquals(1, g.process().exitValue());
      String log = g.daemonLog();
      assertTrue(log.contains("gq daemon: stopping because the scheduler failed (scheduler: failure injected for a test);"
          + " running jobs keep running"), log);
      assertTrue(log.contains("gq daemon: stopped because the scheduler failed (scheduler: failure injected for a test)"), log);
      Files.writeString(go, "");
      g.startDaemon();
      Gqd.Result first = g.gq("ps");
      assertEquals(0, first.code());
      assertTrue(first.err().matches("gq: the previous daemon stopped at \\S+ because the scheduler failed"
          + " \\(scheduler: failure injected for a test\\)\n"), first.err());
      assertEquals("", g.gq("ps").err(), "said once");
      assertTrue(g.gq("daemon", "status").out().contains("the previous daemon stopped at "));
      // the job ran on while no daemon watched it, and its exit status is kept
      assertEquals(4, g.awaitState(id, "FAILED", T).get("exit_code").asInt());
    }
  }

  /** Runs {@code sql} on the daemon's database beside it, as another process would. */
  private static void sql(Gqd g, String sql) throws Exception {
    try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + g.data.resolve("gq.db"));
        var st = c.createStatement()) {
      st.execute("PRAGMA busy_timeout = 10000");
      st.execute(sql);
    }
  }

  @Test
  void aHistoryThatCannotBeWrittenIsShownAndCatchesUpOnceItCan() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, faults(tmp.resolve("faults"), "300"))) {
      // every write of the history's offset fails as on a full disk; the journal's tables are untouched
      sql(g, "CREATE TRIGGER gq_test_full BEFORE INSERT ON read_offset BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END");
      long id = g.submit("-g", "1", "true");
      Gqd.await("the history's failure to show", T, () -> part(g, "history").startsWith("history: failing for "));
      assertTrue(part(g, "history").contains(" the job history") && part(g, "history").contains("database or disk is full"),
          part(g, "history"));
      Gqd.await("the job to end", T, () -> !listed(g, id, "ps", "--json"));
      sql(g, "DROP TRIGGER gq_test_full");
      // no new event is needed: the history tries again by itself
      Gqd.await("the history to catch up", T, () -> part(g, "history").startsWith("history: ok, ") && inHistory(g, id));
      assertEquals("DONE", g.state(id));
      long next = g.submit("-g", "1", "true");
      assertEquals("DONE", g.awaitState(next, "DONE", T).get("state").asText());
    }
  }

  @Test
  void aLeaseDirectoryThatDisappearsLeavesEveryPartWorking() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, faults(tmp.resolve("faults"), "300"))) {
      Path go = tmp.resolve("go");
      long first = g.submit("-g", "1", "sh", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done; exit 0");
      g.awaitState(first, "RUNNING", T);
      Path leases = g.fake.resolve("leases");
      assertTrue(Files.isDirectory(leases));
      try (var files = Files.list(leases)) {
        for (Path f : files.toList()) Files.delete(f);
      }
      Files.delete(leases);
      Files.writeString(go, "");
      g.awaitState(first, "DONE", T);
      long second = g.submit("-g", "1", "true");
      g.awaitState(second, "DONE", T);
      for (String p : List.of("gpu watcher", "history", "reconciler", "notifier", "cluster bridge"))
        assertTrue(part(g, p).startsWith(p + ": ok, "), part(g, p));
      assertTrue(g.process().isAlive());
      // a daemon asked to stop stops its parts without taking that for a failure
      g.stopDaemon();
      assertEquals(0, g.process().exitValue());
      assertFalse(Files.exists(g.data.resolve("daemon.failed")));
      assertFalse(g.daemonLog().contains("stopping because"), g.daemonLog());
    }
  }
}
