package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.ledger.QueueSettings;
import dev.gq.persistence.LedgerSnapshot.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A snapshot's waiting jobs read back field by field as written, every field set or left out, and
 * the jobs of one write share one submit time read once.
 */
class WaitingReaderTest {
  private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule()).registerModule(new Jdk8Module())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private static final Instant T = Instant.parse("2026-12-06T08:05:17.038204780Z");

  private static LedgerSnapshot snapshot(List<Waiting> waiting) {
    return new LedgerSnapshot(9, waiting, List.of(), Map.of(), true, Map.of(), Set.of(), Map.of(), Map.of(), List.of(),
        QueueSettings.NONE);
  }

  @Test
  void everyFieldReadsBackAsWrittenAndTheJobsOfOneWriteShareTheirSubmitTime() throws Exception {
    List<Waiting> waiting = List.of(
        new Waiting(1, "/w", 1, null, null, null, null, 0, null, T, "t1", null, 0, null, null, null, null, null),
        new Waiting(2, "/w", 1, null, null, null, null, 0, null, T, "t2", null, 0, null, null, null, null, null),
        new Waiting(3, "/x y", 2, "n", "g", "k", List.of(new Dependency(1, true), new Dependency(2, false)), 3,
            Duration.ofMinutes(90), T.plusSeconds(1), "t3", 1L, -5, T.plusSeconds(3600), "--from {ckpt}", "newest", "slurm",
            new GpuNeed(40_000, List.of("H100", "A100"), true, 2)),
        new Waiting(4, null, 0, null, null, null, null, 0, null, null, null, null, 0, null, null, null, null, null));
    String text = JSON.writeValueAsString(snapshot(waiting));
    LedgerSnapshot back = JSON.readValue(text, LedgerSnapshot.class);
    assertEquals(waiting, back.waiting());
    assertSame(back.waiting().get(0).at(), back.waiting().get(1).at(), "one submit time for the jobs of one write");
    assertEquals(snapshot(waiting).ledger(), back.ledger());
  }

  @Test
  void fieldsItDoesNotKnowAndNullsAreSkipped() throws Exception {
    String text = "{\"nextId\":5,\"waiting\":[{\"id\":4,\"cwd\":\"/w\",\"gpus\":1,\"later\":{\"a\":[1,{\"b\":2}]},\"name\":null,"
        + "\"at\":\"2026-12-06T08:05:17.038204780Z\",\"tag\":\"t4\",\"after\":null}],\"active\":[],\"paused\":false}";
    Waiting w = JSON.readValue(text, LedgerSnapshot.class).waiting().get(0);
    assertEquals(new Waiting(4, "/w", 1, null, null, null, null, 0, null, T, "t4", null, 0, null, null, null, null, null), w);
  }

  @Test
  void theWaitingJobsOfOneSpecShareItInTheLedgerASnapshotLoads() throws Exception {
    List<Waiting> waiting = List.of(
        new Waiting(1, "/w", 1, null, "g", null, null, 0, null, T, "t1", null, 0, null, null, null, null, null),
        new Waiting(2, "/w", 1, null, "g", null, null, 0, null, T, "t2", null, 0, null, null, null, null, null),
        new Waiting(3, "/w", 2, null, "g", null, null, 0, null, T, "t3", null, 0, null, null, null, null, null));
    var live = JSON.readValue(JSON.writeValueAsString(snapshot(waiting)), LedgerSnapshot.class).ledger().live();
    assertSame(live.get(1L).spec(), live.get(2L).spec());
    assertNotSame(live.get(2L).spec(), live.get(3L).spec());
    assertEquals(2, live.get(3L).spec().gpus());
    assertEquals(snapshot(waiting).ledger(), LedgerSnapshot.of(snapshot(waiting).ledger()).ledger(), "written and read back");
  }
}
