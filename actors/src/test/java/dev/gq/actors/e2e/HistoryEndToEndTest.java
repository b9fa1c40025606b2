package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * gq wait's exit codes, and deleting history (rm, clean) without ever touching a file outside gq's
 * directories. The tests that count only their own jobs share one daemon ({@link SharedDaemons}).
 */
class HistoryEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @RegisterExtension static final SharedDaemons SHARED = new SharedDaemons();

  @TempDir Path tmp;

  @Test
  void waitExitsWithTheJobsExitCode() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long three = g.submit("-g", "0", "bash", "-c", "sleep 0.5; exit 3");
    long ok = g.submit("-g", "0", "true");
    assertEquals(3, g.gq("wait", String.valueOf(three)).code());
    Gqd.Result done = g.gq("wait", String.valueOf(ok));
    assertEquals(0, done.code(), done.toString());
    assertEquals("Job " + ok + " ended DONE (exit code 0)\n", done.out());
    assertEquals(1, g.gq("wait", three + "," + ok).code());

    long slow = g.submit("-g", "0", "sleep", "30");
    Gqd.Result late = g.gq("wait", String.valueOf(slow), "--timeout", "1s");
    assertEquals(124, late.code(), late.toString());
    assertTrue(late.err().startsWith("gq: timed out after 1s: job " + slow + " is "), late.err());
    g.gq("cancel", String.valueOf(slow));
    assertEquals(1, g.gq("wait", String.valueOf(slow), "--timeout", "1m").code(), "CANCELLED has no exit code of its own");
  }

  @Test
  void rmOfARunningJobIsRefusedAndDeletesNothing() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long done = g.submit("-g", "0", "true");
    g.awaitState(done, "DONE", T);
    long running = g.submit("-g", "0", "sleep", "30");
    g.awaitState(running, "RUNNING", T);
    Gqd.Result r = g.gq("rm", String.valueOf(done), String.valueOf(running));
    assertEquals(1, r.code());
    assertEquals("gq: job " + running + " is RUNNING and cannot be deleted; cancel it first\n", r.err());
    assertEquals("DONE", g.state(done), "all or nothing");
    assertEquals("RUNNING", g.state(running));
    g.gq("cancel", "-y", String.valueOf(running));
    g.awaitState(running, "CANCELLED", T);
  }

  @Test
  void rmDeletesTheJobItsLogAndFreesItsKey() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long id = g.submit("-g", "0", "--key", "cell", "echo", "hi");
    g.awaitState(id, "DONE", T);
    Path log = Path.of(g.job(id).get("log_path").asText());
    assertTrue(Files.exists(log));
    assertEquals("Removed 1 job and its log: " + id + "\n", g.gq("rm", String.valueOf(id)).out());
    assertFalse(Files.exists(log));
    assertFalse(Files.exists(g.data.resolve("run").resolve(id + ".exit")));
    assertEquals("gq: job " + id + " does not exist\n", g.gq("show", String.valueOf(id)).err());
    assertTrue(g.gq("events", "--job", String.valueOf(id)).out().contains("JobSubmitted"), "the journal keeps the events");
    assertTrue(g.gq("-g", "0", "--key", "cell", "true").out().startsWith("Submitted job"), "the key is free again");
  }

  @Test
  void cleanNeverDeletesAFileOutsideTheLogDirectory() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path outside = Files.createDirectories(tmp.resolve("outside"));
      Path precious = Files.writeString(outside.resolve("precious.txt"), "keep me");
      Path linked = Files.writeString(outside.resolve("linked.txt"), "keep me too");
      long tampered = g.submit("-g", "0", "echo", "a");
      long symlinked = g.submit("-g", "0", "echo", "b");
      long plain = g.submit("-g", "0", "echo", "c");
      long other = g.submit("-g", "0", "sleep", "30");
      g.awaitState(plain, "DONE", T);
      g.awaitState(tampered, "DONE", T);
      g.awaitState(symlinked, "DONE", T);
      g.awaitState(other, "RUNNING", T);
      Path otherLog = Path.of(g.job(other).get("log_path").asText());
      setLogPath(g, tampered, precious.toString());
      Path link = Path.of(g.job(symlinked).get("log_path").asText());
      Files.delete(link);
      Files.createSymbolicLink(link, linked);
      Path plainLog = Path.of(g.job(plain).get("log_path").asText());
      Thread.sleep(2100); // ends are compared in whole seconds, never rounding towards deletion

      Gqd.Result r = g.gq("clean", "--older-than", "1s", "-y");
      assertEquals(0, r.code(), r.toString());
      assertEquals("Removed 3 jobs and their logs.\n", r.out());
      assertEquals("keep me", Files.readString(precious));
      assertEquals("keep me too", Files.readString(linked));
      assertFalse(Files.exists(plainLog));
      assertTrue(Files.exists(otherLog), "a running job's log stays");
      assertEquals("RUNNING", g.state(other));
      assertEquals(1, g.gq("ps", "--all", "--json").json().size());
    }
  }

  @Test
  void rmOfAJobWhoseLogPathNamesAnotherJobsLogKeepsThatLog() throws Exception {
    Gqd g = SHARED.withGpus(1);
    long a = g.submit("-g", "0", "echo", "a");
    long b = g.submit("-g", "0", "echo", "b");
    g.awaitState(a, "DONE", T);
    g.awaitState(b, "DONE", T);
    Path logB = Path.of(g.job(b).get("log_path").asText());
    setLogPath(g, a, logB.toString());
    setLogPath(g, b, logB.getParent().resolve("..").resolve("gq.db").toString());
    assertEquals(0, g.gq("rm", String.valueOf(a), String.valueOf(b)).code());
    assertTrue(Files.exists(logB), "job " + a + "'s tampered path named job " + b + "'s log");
    assertTrue(Files.exists(g.data.resolve("gq.db")));
  }

  /** Points a ended job's recorded log path elsewhere, as a tampered database would. */
  private static void setLogPath(Gqd g, long id, String path) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + g.data.resolve("gq.db") + "?busy_timeout=5000");
        PreparedStatement ps = c.prepareStatement("UPDATE jobs SET doc = json_set(doc, '$.logPath', ?) WHERE id = ?")) {
      ps.setString(1, path);
      ps.setLong(2, id);
      assertEquals(1, ps.executeUpdate());
    }
    assertEquals(path, g.job(id).get("log_path").asText());
  }
}
