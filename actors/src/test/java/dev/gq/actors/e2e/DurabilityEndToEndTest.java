package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history and the job files stay together: an empty database beside old job files is refused,
 * a clean stop leaves the whole history in gq.db, and no job id with files is issued again.
 */
class DurabilityEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  @Test
  void anEmptyDatabaseBesideOldJobFilesIsRefusedWithWhatToDo() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long id = g.submit("-g", "0", "true");
      g.awaitState(id, "DONE", T);
      g.stopDaemon();
      Path db = g.data.resolve("gq.db");
      Files.write(db, new byte[0]);
      Files.deleteIfExists(g.data.resolve("gq.db-wal"));
      Files.deleteIfExists(g.data.resolve("gq.db-shm"));
      Process p = g.daemonProcess();
      assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the daemon exits");
      assertEquals(1, p.exitValue(), g.daemonLog());
      String line = g.daemonLog().lines().filter(l -> l.startsWith("gq daemon: ")).findFirst().orElseThrow(() -> new AssertionError(g.daemonLog()));
      assertTrue(line.contains("the database " + db + " is empty but "), line);
      assertTrue(line.contains("file(s) of earlier jobs (up to job " + id + ")"), line);
      assertTrue(line.contains("restore the database from a backup") && line.contains("mv " + g.data.resolve("logs")), line);
      assertEquals(0, Files.size(db), "nothing was written over it");
      // Doing what it says starts a new history.
      Files.move(g.data.resolve("logs"), g.data.resolve("logs.old"));
      Files.move(g.data.resolve("run"), g.data.resolve("run.old"));
      g.startDaemon();
      assertEquals(1, g.submit("-g", "0", "true"));
    }
  }

  @Test
  void aCleanStopLeavesTheWholeHistoryInTheDatabaseFile() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long id = g.submit("-g", "0", "true");
      g.awaitState(id, "DONE", T);
      g.stopDaemon();
      Path wal = g.data.resolve("gq.db-wal");
      assertTrue(!Files.exists(wal) || Files.size(wal) == 0, "no transaction left only in the write-ahead log");
      Files.deleteIfExists(wal);
      Files.deleteIfExists(g.data.resolve("gq.db-shm"));
      g.startDaemon();
      assertEquals("DONE", g.state(id));
      assertEquals(id + 1, g.submit("-g", "0", "true"));
    }
  }

  @Test
  void noJobIdWithFilesIsIssuedAgain() throws Exception {
    Path root = tmp.resolve("d");
    Path oldLog;
    try (Gqd g = Gqd.start(root, 1)) {
      long id = g.submit("-g", "0", "true");
      g.awaitState(id, "DONE", T);
      g.stopDaemon();
      // Files of jobs whose records the history lost (a deleted write-ahead log, an older backup).
      oldLog = g.data.resolve("logs").resolve("40.log");
      Files.writeString(oldLog, "old output\n");
      Files.writeString(g.data.resolve("run").resolve("45.exit"), "0\n");
      Files.writeString(g.data.resolve("run").resolve("47.progress"), "");
      Process refused = g.daemonProcess();
      assertTrue(refused.waitFor(60, TimeUnit.SECONDS), "the daemon exits");
      assertEquals(1, refused.exitValue(), g.daemonLog());
      assertTrue(g.daemonLog().contains("hold the files of 2 jobs (40 to 45) but its last job is " + id), g.daemonLog());
    }
    // Accepting the loss: no id with files is issued again (47 names a file, not a run).
    try (Gqd g = new Gqd(root, 1, java.util.Map.of("GQ_ACCEPT_LOST_HISTORY", "1"))) {
      g.startDaemon();
      long next = g.submit("-g", "0", "bash", "-c", "echo new output");
      assertEquals(48, next);
      g.awaitState(next, "DONE", T);
      assertEquals("old output\n", Files.readString(oldLog));
      assertTrue(g.gq("events").out().contains("JobIdsSkipped"), "the decision is in the event log");
    }
  }

  @Test
  void aJournalThatLostItsWriteAheadLogStopsTheStartNamingTheJobsItLostAndTheOnesStillRunning() throws Exception {
    Path go = tmp.resolve("go");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long kept = g.submit("-g", "0", "true");
      g.awaitState(kept, "DONE", T);
      g.stopDaemon(); // job 1 is in gq.db itself now
      g.startDaemon();
      long done = g.submit("-g", "0", "bash", "-c", "exit 7");
      long running = g.submit("-g", "1", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.1; done");
      g.awaitState(done, "FAILED", T);
      g.awaitState(running, "RUNNING", T);
      g.killDaemon();
      Files.delete(g.data.resolve("gq.db-wal"));
      Files.deleteIfExists(g.data.resolve("gq.db-shm"));
      String line = refusedStart(g);
      assertTrue(line.startsWith("gq daemon: cannot start: the journal " + g.data.resolve("gq.db") + " lost its last writes: "), line);
      assertTrue(line.contains("hold the files of 2 jobs (" + done + " to " + running + ") but its last job is " + kept), line);
      assertTrue(line.matches(".*one of them still runs \\(shim pid \\d+ for job " + running + "\\).*"), line);
      assertTrue(line.contains("GQ_ACCEPT_LOST_HISTORY=1 gq daemon start"), line);
      Files.writeString(go, "");
    }
  }

  @Test
  void aDamagedWriteAheadLogThatDropsJobsStopsTheStart() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long first = 0;
      for (int i = 0; i < 20; i++) {
        long id = g.submit("-g", "0", "true");
        if (first == 0) first = id;
        g.awaitState(id, "DONE", T);
      }
      long last = g.submit("-g", "0", "bash", "-c", "exit 6");
      g.awaitState(last, "FAILED", T);
      g.killDaemon();
      // 4 KiB of garbage in the middle of the write-ahead log: SQLite drops every frame from there on.
      Path wal = g.data.resolve("gq.db-wal");
      try (var ch = java.nio.channels.FileChannel.open(wal, java.nio.file.StandardOpenOption.WRITE)) {
        byte[] junk = new byte[4096];
        java.util.Arrays.fill(junk, (byte) 0x5a);
        ch.write(java.nio.ByteBuffer.wrap(junk), ch.size() / 2);
      }
      String line = refusedStart(g);
      assertTrue(line.contains(" lost its last writes: ") && line.contains(" to " + last + ") but "), line);
    }
  }

  /** Starts a daemon that must refuse to start; returns its one line. */
  private static String refusedStart(Gqd g) throws Exception {
    Process p = g.daemonProcess();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the daemon exits");
    assertEquals(1, p.exitValue(), g.daemonLog());
    return g.daemonLog().lines().filter(l -> l.startsWith("gq daemon: ")).reduce((a, b) -> b)
        .orElseThrow(() -> new AssertionError(g.daemonLog()));
  }

  @Test
  void anEventThatCannotBeReplayedStopsTheStartWithOneLine() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long id = g.submit("-g", "0", "true");
      g.awaitState(id, "DONE", T);
      g.stopDaemon();
      Path db = g.data.resolve("gq.db");
      try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db); var st = c.createStatement()) {
        st.execute("UPDATE event_journal SET event_payload = CAST('not an event' AS BLOB) WHERE sequence_number = 1");
      }
      Process p = g.daemonProcess();
      assertTrue(p.waitFor(90, TimeUnit.SECONDS), "the daemon gives up at once instead of retrying the replay");
      assertEquals(1, p.exitValue(), g.daemonLog());
      // the last line but for the actor system's own shutdown warnings (a loaded machine may take
      // longer than its phases allow to stop it)
      java.util.List<String> lines = g.daemonLog().lines().filter(l -> !l.contains(" CoordinatedShutdown - ")).toList();
      String last = lines.get(lines.size() - 1);
      assertTrue(last.startsWith("gq daemon: cannot start: the scheduler could not replay its events from " + db + " ("), last);
      assertTrue(last.endsWith("); the daemon log has the details"), last);
    }
  }

  @Test
  void oneUnreadableRowIsSkippedAndNamedByPs() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      long a = g.submit("-g", "0", "true"), b = g.submit("-g", "0", "true"), c = g.submit("-g", "0", "true");
      g.awaitState(c, "DONE", T);
      g.awaitState(b, "DONE", T);
      try (var con = java.sql.DriverManager.getConnection("jdbc:sqlite:" + g.data.resolve("gq.db") + "?busy_timeout=5000");
          var st = con.createStatement()) {
        st.execute("UPDATE jobs SET doc = 'not a job' WHERE id = " + b);
      }
      Gqd.Result r = g.gq("ps", "--all");
      assertEquals(1, r.code(), r.toString());
      assertTrue(r.out().contains("\n" + a + " ") && r.out().contains("\n" + c + " "), r.out());
      assertEquals("gq: job " + b + " could not be read from the history (a damaged record) and is not listed;"
          + " its events are still in 'gq events --job ID'\n", r.err());
      Gqd.Result json = g.gq("ps", "--all", "--json");
      assertEquals(1, json.code());
      assertEquals(2, json.json().size());
    }
  }
}
