package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalReaderTest {
  static final long T0 = Instant.parse("2026-11-29T10:00:00Z").toEpochMilli();

  @TempDir Path dir;
  JournalRows rows;
  JournalReader reader;

  @BeforeEach
  void setUp() throws Exception {
    rows = new JournalRows(dir.resolve("gq.db"));
    reader = JournalReader.open(dir.resolve("gq.db"));
  }

  @AfterEach
  void tearDown() throws Exception {
    reader.close();
    rows.close();
  }

  static String submitted(long job) {
    return "{\"jobId\":" + job + ",\"spec\":{\"argv\":[\"bash\",\"-c\",\"exit 3\"],\"cwd\":\"/w\",\"env\":{\"API_TOKEN\":\"s3cret\"},"
        + "\"gpus\":2,\"name\":null,\"group\":\"g\",\"key\":null},\"tag\":\"t-1\",\"logPath\":\"/d/logs/" + job
        + ".log\",\"retryOf\":null,\"at\":\"2026-11-29T10:00:00.123456789Z\"}";
  }

  static String exited(long job, int code) {
    return "{\"jobId\":" + job + ",\"exitCode\":" + code + ",\"reason\":\"exit code " + code + "\",\"at\":\"2026-11-29T10:00:01Z\"}";
  }

  /** Job 1 submitted, reserved, launched, exited; job 2 submitted and cancelled, a minute later. */
  void lifeOfTwoJobs() throws Exception {
    rows.add("JobSubmitted", T0, submitted(1));
    rows.add("JobReserved", T0, "{\"jobId\":1,\"gpus\":[{\"uuid\":\"GPU-a\",\"index\":0},{\"uuid\":\"GPU-b\",\"index\":1}],\"at\":\"2026-11-29T10:00:00Z\"}");
    rows.add("JobLaunched", T0 + 200, "{\"jobId\":1,\"identity\":{\"pid\":1234,\"pgid\":1234,\"sid\":1234,\"startTicks\":99,"
        + "\"bootId\":\"b-1\"},\"at\":\"2026-11-29T10:00:00.2Z\"}");
    rows.add("JobExited", T0 + 1000, exited(1, 3));
    rows.add("JobSubmitted", T0 + 60_000, submitted(2));
    rows.add("JobCancelled", T0 + 61_000, "{\"jobId\":2,\"reason\":\"cancelled by the user\",\"at\":\"2026-11-29T10:01:01Z\"}");
  }

  static List<String> types(List<JournalEntry> entries) {
    return entries.stream().map(e -> e.seq() + ":" + e.type() + ":" + e.jobId()).toList();
  }

  @Test
  void readsEveryEventOldestFirstWithItsTimeTypeAndJob() throws Exception {
    lifeOfTwoJobs();
    List<JournalEntry> all = reader.read(0, null, null, 100);
    assertEquals(List.of("1:JobSubmitted:1", "2:JobReserved:1", "3:JobLaunched:1", "4:JobExited:1", "5:JobSubmitted:2",
        "6:JobCancelled:2"), types(all));
    assertEquals(Instant.ofEpochMilli(T0 + 200), all.get(2).time());
  }

  @Test
  void fieldsAreFlatSnakeCaseAndLeaveTheEnvironmentOut() throws Exception {
    lifeOfTwoJobs();
    List<JournalEntry> all = reader.read(0, null, null, 100);
    Map<String, Object> submit = all.get(0).fields();
    assertEquals(List.of("argv", "cwd", "requested_gpus", "name", "group", "key", "tag", "log_path", "retry_of"),
        List.copyOf(submit.keySet()));
    assertEquals(List.of("bash", "-c", "exit 3"), submit.get("argv"));
    assertEquals(2L, submit.get("requested_gpus"));
    assertFalse(all.toString().contains("s3cret"), "the job's environment never leaves the journal");
    assertEquals(Map.of("gpus", List.of(0L, 1L), "gpu_uuids", List.of("GPU-a", "GPU-b")), all.get(1).fields());
    assertEquals(1234L, all.get(2).fields().get("pid"));
    assertEquals(99L, all.get(2).fields().get("start_ticks"));
    assertEquals("b-1", all.get(2).fields().get("boot_id"));
    assertEquals(3L, all.get(3).fields().get("exit_code"));
  }

  @Test
  void pagesFromASequenceNumber() throws Exception {
    lifeOfTwoJobs();
    assertEquals(List.of("1:JobSubmitted:1", "2:JobReserved:1"), types(reader.read(0, null, null, 2)));
    assertEquals(List.of("3:JobLaunched:1", "4:JobExited:1"), types(reader.read(2, null, null, 2)));
    assertEquals(List.of(), reader.read(6, null, null, 2));
  }

  @Test
  void filtersByJob() throws Exception {
    lifeOfTwoJobs();
    assertEquals(List.of("5:JobSubmitted:2", "6:JobCancelled:2"), types(reader.read(0, 2L, null, 100)));
    assertEquals(List.of("4:JobExited:1"), types(reader.read(3, 1L, null, 100)));
  }

  @Test
  void anEventAboutNoJobHasNoJobIdAndNoJobFilterMatchesIt() throws Exception {
    rows.add("QueuePaused", T0, "{\"at\":\"2026-11-29T10:00:00Z\"}");
    rows.add("GroupHeld", T0, "{\"group\":\"sweep\",\"reason\":\"3 quick failures\",\"automatic\":true,\"at\":\"2026-11-29T10:00:00Z\"}");
    List<JournalEntry> all = reader.read(0, null, null, 100);
    assertEquals(List.of("1:QueuePaused:null", "2:GroupHeld:null"), types(all));
    assertEquals(Map.of("group", "sweep", "reason", "3 quick failures", "automatic", true), all.get(1).fields());
    assertEquals(List.of(), reader.read(0, 0L, null, 100));
  }

  @Test
  void filtersByStoreTime() throws Exception {
    lifeOfTwoJobs();
    assertEquals(List.of("4:JobExited:1", "5:JobSubmitted:2", "6:JobCancelled:2"),
        types(reader.read(0, null, Instant.ofEpochMilli(T0 + 1000), 100)));
  }

  @Test
  void readsCompressedPayloadsAndFiltersThemByJob() throws Exception {
    rows.addGzipped("JobExited", T0, exited(7, 1));
    rows.addGzipped("JobExited", T0, exited(8, 0));
    rows.add("JobExited", T0, exited(7, 2));
    assertEquals(List.of("1:JobExited:7", "3:JobExited:7"), types(reader.read(0, 7L, null, 100)));
    assertEquals(List.of("1:JobExited:7"), types(reader.read(0, 7L, null, 1)), "a skipped row does not end the page");
  }

  @Test
  void tailStartLeavesOnlyTheLastEvents() throws Exception {
    lifeOfTwoJobs();
    assertEquals(4, reader.tailStart(null, null, 2));
    assertEquals(0, reader.tailStart(null, null, 6));
    assertEquals(0, reader.tailStart(null, null, 50));
    assertEquals(2, reader.tailStart(1L, null, 2));
    assertEquals(5, reader.tailStart(2L, Instant.ofEpochMilli(T0 + 60_000), 1));
  }

  @Test
  void otherPersistenceIdsAreNotShown() throws Exception {
    rows.add("other", "JobExited", T0, exited(1, 0).getBytes());
    rows.add("JobExited", T0, exited(1, 4));
    List<JournalEntry> all = reader.read(0, null, null, 100);
    assertEquals(1, all.size());
    assertEquals(4L, all.get(0).fields().get("exit_code"));
  }

  @Test
  void anUnreadablePayloadIsShownNotFatal() throws Exception {
    rows.add("JobExited", T0, "not json {");
    rows.add("JobExited", T0, exited(1, 0));
    List<JournalEntry> all = reader.read(0, null, null, 100);
    assertEquals(List.of("1:JobExited:null", "2:JobExited:1"), types(all));
    assertTrue(all.get(0).fields().containsKey("unreadable"), all.toString());
  }

  @Test
  void opensReadOnlyAndNeverCreatesAFile() {
    Path missing = dir.resolve("missing.db");
    assertThrows(SQLException.class, () -> JournalReader.open(missing).close());
    assertFalse(java.nio.file.Files.exists(missing));
  }

  @Test
  void typeIsTheSimpleClassName() {
    assertEquals("JobReserved", JournalReader.type("dev.gq.core.ledger.LedgerEvent$JobReserved"));
    assertEquals("JobReserved", JournalReader.type("dev.gq.core.ledger.LedgerEvent$JobReserved#2"));
    assertEquals("Plain", JournalReader.type("a.b.Plain"));
  }

  @Test
  void highestSeqIsTheSchedulersLastEventAndZeroWhenNone() throws Exception {
    assertEquals(0, reader.highestSeq());
    lifeOfTwoJobs();
    rows.add("other", "JobSubmitted", T0, submitted(9).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(6, reader.highestSeq());
  }

  @Test
  void storedEventsComeInPagesInOrderWithTheirSerializer() throws Exception {
    lifeOfTwoJobs();
    List<StoredEvent> first = reader.stored(0, 4);
    assertEquals(List.of(1L, 2L, 3L, 4L), first.stream().map(StoredEvent::seq).toList());
    assertEquals(31, first.get(0).serializerId());
    assertEquals(JournalRows.MANIFEST + "JobSubmitted", first.get(0).manifest());
    assertEquals(submitted(1), new String(first.get(0).payload(), java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(List.of(5L, 6L), reader.stored(4, 4).stream().map(StoredEvent::seq).toList());
    assertTrue(reader.stored(6, 4).isEmpty());
  }
}
