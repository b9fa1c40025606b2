package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A submission that shares another job's stored command is stored in the history with the whole command. */
class SharedCommandTest {
  @TempDir Path dir;
  JobHistory rs;
  HistoryFixture h;

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

  @Test
  void aBatchLineAndARetryReadBackWithTheirWholeCommand() throws Exception {
    Map<String, String> env = Map.of("HOME", "/home/u", "WANDB_MODE", "offline");
    JobSpec first = new JobSpec(List.of("python", "cell.py", "1"), "/w", env, 1, null, "sweep", null);
    JobSpec line = new JobSpec(List.of("python", "cell.py", "2"), "/w", Map.of(), 1, null, "sweep", null);
    JobSpec retry = new JobSpec(List.of(), "/w", Map.of(), 1, null, "sweep", null);
    h.apply(new JobSubmitted(1, first, "t1", "/l/1", null, List.of(), HistoryFixture.T0),
        new JobSubmitted(2, line, "t2", "/l/2", null, List.of(), HistoryFixture.T0, 1L),
        new JobSubmitted(3, retry, "t3", "/l/3", 2L, List.of(), HistoryFixture.T0, 2L));
    assertEquals(first, rs.job(1).orElseThrow().spec());
    assertEquals(line.withEnv(env), rs.job(2).orElseThrow().spec(), "a batch line: its own argv, the first job's environment");
    assertEquals(line.withEnv(env), rs.job(3).orElseThrow().spec(), "a retry: the failed job's argv and environment");
    assertEquals("/l/3", rs.job(3).orElseThrow().logPath());
  }
}
