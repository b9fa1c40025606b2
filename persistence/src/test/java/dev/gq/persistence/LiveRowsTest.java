package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.JobChanged;
import dev.gq.core.ledger.LedgerEvent.JobLaunched;
import dev.gq.core.ledger.LedgerEvent.JobReserved;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import dev.gq.core.proc.ProcessIdentity;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing's rows made from the Scheduler's memory and the commands read from the history are the
 * rows the history decodes, and the listing cache never keeps one older than the stored row.
 */
class LiveRowsTest {
  static final JobQuery LIVE = new JobQuery(List.of(), JobState.live(), null, 0);
  @TempDir Path dir;
  JobHistory rs;
  HistoryFixture h;
  Ledger ledger = Ledger.empty();

  @BeforeEach
  void setUp() throws Exception {
    Database.prepare(dir.resolve("gq.db"));
    rs = JobHistory.open(dir.resolve("gq.db"));
    h = new HistoryFixture(rs);
  }

  @AfterEach
  void tearDown() throws Exception {
    rs.close();
  }

  private void apply(LedgerEvent... events) throws Exception {
    h.apply(events);
    for (LedgerEvent e : events) ledger = ledger.apply(e);
  }

  private JobPage decoded(JobQuery q) throws Exception {
    try (JobHistory fresh = JobHistory.open(dir.resolve("gq.db"))) {
      return fresh.page(q);
    }
  }

  /** Waiting, reserved, launched and changed jobs, a batch line sharing its first job's command. */
  private void queue() throws Exception {
    Map<String, String> env = Map.of("HOME", "/home/u", "WANDB_MODE", "offline");
    JobSpec first = new JobSpec(List.of("python", "cell.py", "1"), "/w", env, 1, "first", "sweep", "k1");
    JobSpec line = new JobSpec(List.of("python", "cell.py", "it's \u202e 2 \u0001\t\"\\ \ud83d\ude00"), "/w", Map.of(), 2, null, "sweep", null);
    apply(new JobSubmitted(1, first, "t1", "/l/1", null, List.of(), HistoryFixture.T0),
        new JobSubmitted(2, line, "t2", "/l/2", null, List.of(), HistoryFixture.T0, 1L),
        new JobSubmitted(3, HistoryFixture.spec(null, null), "t3", null, null, HistoryFixture.T0),
        new JobSubmitted(4, HistoryFixture.spec("g", "key-4"), "t4", "/l/4", null, HistoryFixture.T0));
    apply(new JobReserved(1, List.of(new GpuSlot("GPU-a", 0)), HistoryFixture.T0.plusSeconds(1)),
        new JobLaunched(1, new ProcessIdentity(4242, 4242, 4242, 77, "boot"), HistoryFixture.T0.plusSeconds(2)),
        new JobChanged(4, 3, 7, true, Duration.ofHours(2), Map.of("A", "b"), List.of(), HistoryFixture.T0.plusSeconds(3)));
  }

  @Test
  void rowsMadeFromMemoryAreTheDecodedRows() throws Exception {
    queue();
    JobPage made = rs.page(LIVE, ledger.live(), h.seq, true);
    assertEquals(decoded(LIVE), made);
    assertEquals(List.of(4L, 3L, 2L, 1L), made.jobs().stream().map(Job::id).toList());
    // the cached rows are read back the same
    assertEquals(decoded(LIVE), rs.page(LIVE));
  }

  @Test
  void aRowMadeFromMemoryReadsOnlyTheCommandAndLogPathOfTheRecord() throws Exception {
    queue();
    try (var c = DriverManager.getConnection(Database.url(dir.resolve("gq.db"))); var st = c.createStatement()) {
      st.execute("UPDATE jobs SET doc = json_set(doc, '$.tag', 'edited', '$.spec.argv', json('[\"edited\"]')) WHERE id = 3");
    }
    JobPage page = rs.page(LIVE, ledger.live(), -1, true);
    Job made = byId(page, 3);
    assertEquals("t3", made.tag());
    assertEquals(List.of("edited"), made.spec().argv());
    assertEquals("edited", byId(decoded(LIVE), 3).tag());
    // every row was made so, escapes and all: none read the tag the record holds
    try (var c = DriverManager.getConnection(Database.url(dir.resolve("gq.db"))); var st = c.createStatement()) {
      st.execute("UPDATE jobs SET doc = json_set(doc, '$.tag', 'edited')");
    }
    for (Job j : rs.page(LIVE, ledger.live(), -1, true).jobs()) assertEquals("t" + j.id(), j.tag(), "job " + j.id());
    assertEquals(List.of("python", "cell.py", "it's \u202e 2 \u0001\t\"\\ \ud83d\ude00"), byId(page, 2).spec().argv());
  }

  @Test
  void aRowTheMemoryIsBehindOnIsShownAsTheMemoryHadItAndNeverCached() throws Exception {
    queue();
    Ledger before = ledger;
    long at = h.seq;
    apply(new JobChanged(3, null, 9, false, null, Map.of(), List.of(), HistoryFixture.T0.plusSeconds(4)));
    // the memory was taken before the change: its row is as of then, but the cache must not keep it
    JobPage made = rs.page(LIVE, before.live(), at, true);
    assertEquals(0, byId(made, 3).spec().priority());
    assertEquals(9, byId(rs.page(LIVE), 3).spec().priority(), "the listing cache holds the stored row");
    assertEquals(decoded(LIVE), rs.page(LIVE));
  }

  @Test
  void aJobTheMemoryHasInAnotherStateIsDecoded() throws Exception {
    queue();
    Ledger before = ledger;
    apply(new JobReserved(3, List.of(new GpuSlot("GPU-b", 1)), HistoryFixture.T0.plusSeconds(5)));
    assertEquals(decoded(LIVE), rs.page(LIVE, before.live(), -1, true));
  }

  @Test
  void aRecordThatIsNotJsonIsNamedUnreadableAndTheOthersAreListed() throws Exception {
    queue();
    try (var c = DriverManager.getConnection(Database.url(dir.resolve("gq.db"))); var st = c.createStatement()) {
      st.execute("UPDATE jobs SET doc = '{\"id\": 2, \"spec\": ' WHERE id = 2");
    }
    JobPage made = rs.page(LIVE, ledger.live(), -1, true);
    assertEquals(List.of(4L, 3L, 1L), made.jobs().stream().map(Job::id).toList());
    assertEquals(List.of(2L), made.unreadable());
  }

  @Test
  void theFieldsSqliteGivesAreReadWithTheirEscapesAndAnythingElseIsDecodedInstead() throws Exception {
    queue();
    Job held = ledger.live().get(3L);
    Job made = LiveRows.made(held, "WAITING", "[[\"a\\\"b\",\"c\\\\d\\/\",\"\\u0001x\\u001B\\n\\t\",\"\ud83d\ude00 \\ud83d\\ude00\"],null]", true);
    assertEquals(List.of("a\"b", "c\\d/", "\u0001x\u001b\n\t", "\ud83d\ude00 \ud83d\ude00"), made.spec().argv());
    assertEquals(null, made.logPath());
    assertEquals("/l/3", LiveRows.made(held, "WAITING", "[[\"x\"],\"/l/3\"]", true).logPath());
    for (String bad : List.of("[[],\"/l\"]", "[[\"x\"],\"/l\"", "[[\"x\"],7]", "[[\"x],\"/l\"]", "[[\"\\q\"],null]", "[null,null]",
        "[[\"x\"],null]x"))
      assertEquals(null, LiveRows.made(held, "WAITING", bad, true), bad);
    assertEquals(null, LiveRows.made(held, "RUNNING", "[[\"x\"],null]", true), "another state than the memory's");
  }

  @Test
  void forATableTheRowsAreMadeWithTheirCommandsFromTheRecordsBeginningAndNoLogPath() throws Exception {
    queue();
    JobSpec tricky = new JobSpec(List.of("echo", "x\"],\"cwd\":\"y", "cwd"), "/w", Map.of("A", "],\"cwd\":"), 1, null, null, null);
    apply(new JobSubmitted(5, tricky, "t5", "/l/5", null, HistoryFixture.T0));
    JobPage table;
    try (var c = DriverManager.getConnection(Database.url(dir.resolve("gq.db")))) {
      table = ListingPages.page(c, new ListingCache(8), LIVE, new LiveRows(ledger.live(), false, false));
    }
    JobPage whole = decoded(LIVE);
    assertEquals(whole.jobs().size(), table.jobs().size());
    for (int i = 0; i < whole.jobs().size(); i++) {
      Job w = whole.jobs().get(i);
      assertEquals(w.withStored(w.spec(), null), table.jobs().get(i), "job " + w.id());
    }
    // a queue the listing cache holds is made whole for a table too, and cached
    assertEquals(whole, rs.page(LIVE, ledger.live(), h.seq, false));
    assertEquals("/l/5", byId(rs.page(LIVE), 5).logPath());
    assertEquals(List.of("a"), LiveRows.made(ledger.live().get(3L), "WAITING", "[\"a\"]", false).spec().argv());
    assertEquals(null, LiveRows.made(ledger.live().get(3L), "WAITING", "[[\"a\"],null]", false));
  }

  private static Job byId(JobPage page, long id) {
    return page.jobs().stream().filter(j -> j.id() == id).findFirst().orElseThrow();
  }
}
