package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal is the only truth: after a workload with deletions (rm, clean), retries (automatic
 * and 'gq retry') and a restart, a history dropped while the daemon was stopped is rebuilt from
 * the journal at the next start, equal to the one it replaced.
 */
class RebuildEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);

  @TempDir Path tmp;

  @Test
  void aDroppedHistoryIsRebuiltFromTheJournalEqualToTheLiveOne() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long auto = g.submit("-g", "0", "--group", "w", "--retries", "1", "bash", "-c", "[ -e again ] || { touch again; exit 3; }");
      long bad = g.submit("-g", "0", "--group", "w", "bash", "-c", "[ -e fixed ]");
      long gone = g.submit("-g", "0", "--group", "w", "true");
      long keyed = g.submit("-g", "0", "--group", "x", "--key", "cell", "true");
      g.awaitState(bad, "FAILED", T);
      g.awaitState(gone, "DONE", T);
      g.awaitState(keyed, "DONE", T);
      g.gq("wait", "--group", "w", "--timeout", "1m"); // until the automatic retry has run too
      long autoRetry = retryOf(g, auto);
      g.awaitState(autoRetry, "DONE", T);
      Files.writeString(g.work.resolve("fixed"), "");
      Gqd.Result retried = g.gq("retry", String.valueOf(bad));
      assertEquals(0, retried.code(), retried.toString());
      long badRetry = retryOf(g, bad);
      assertEquals(0, g.gq("wait", "--group", "w", "--timeout", "1m").code());
      assertEquals(0, g.gq("rm", String.valueOf(gone), String.valueOf(keyed)).code());

      g.stopDaemon();
      g.startDaemon();
      long cancelled = g.submit("-g", "0", "--group", "x", "sleep", "60");
      g.awaitState(cancelled, "RUNNING", T);
      assertEquals(0, g.gq("cancel", String.valueOf(cancelled)).code());
      g.awaitState(cancelled, "CANCELLED", T);
      Thread.sleep(2100); // ends are compared in whole seconds, never rounding towards deletion
      Gqd.Result cleaned = g.gq("clean", "--older-than", "1s", "--state", "FAILED", "-y");
      assertEquals("Removed 2 jobs and their logs.\n", cleaned.out(), cleaned.toString());
      assertEquals(0, g.gq("hold", "--all").code());
      long waiting = g.submit("-g", "0", "--group", "x", "--key", "cell", "true");
      List<String> live = history(g);
      assertTrue(live.get(0).contains("\"state\":\"WAITING\""), live.get(0));
      assertEquals(List.of(waiting, cancelled, Math.max(badRetry, autoRetry), Math.min(badRetry, autoRetry)), ids(g),
          "rm and clean deleted the others");

      g.stopDaemon();
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + g.data.resolve("gq.db")); Statement st = c.createStatement()) {
        st.execute("DROP TABLE jobs");
        st.execute("DROP TABLE deleted_jobs");
        st.execute("DROP TABLE read_offset");
      }
      g.startDaemon();
      assertEquals(live, history(g));
    }
  }

  /** Every job as 'gq ps --all --json' shows it, one line each, then the groups as 'gq groups --json' shows them. */
  private static List<String> history(Gqd g) {
    List<String> out = new ArrayList<>();
    for (JsonNode j : g.gq("ps", "--all", "--json").json()) out.add(j.toString());
    out.add(g.gq("groups", "--json").json().toString());
    return out;
  }

  /** The job whose retry_of is {@code id}. */
  private static long retryOf(Gqd g, long id) {
    for (JsonNode j : g.gq("ps", "--all", "--json").json())
      if (j.get("retry_of").asLong() == id) return j.get("id").asLong();
    throw new AssertionError("no retry of job " + id);
  }

  private static List<Long> ids(Gqd g) {
    List<Long> out = new ArrayList<>();
    for (JsonNode j : g.gq("ps", "--all", "--json").json()) out.add(j.get("id").asLong());
    return out;
  }
}
