package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.job.WaitReason.Code;
import dev.gq.core.job.WaitReason.GpuBlock;
import dev.gq.core.job.WaitReason.GpuHolder;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code wait_reason} in {@code gq show --json} and {@code gq ps --json}: the words gq prints and the facts beside them. */
class WaitJsonTest {
  private static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");
  private static final GpuNeed VRAM = GpuNeed.of(38200, List.of("H100"));
  private static final GpuNeed SHARED = GpuNeed.of(19046, List.of(), true, 2);
  private static final GpuHolder JOB_3 = FakeApi.holder(0, GpuState.RUNNING, 3L);
  private static final WaitReason.BookedGpu BOOKED = new WaitReason.BookedGpu("GPU-1", "bob", NOW.plusSeconds(600),
      NOW.plusSeconds(4200), Duration.ofHours(1), false, NOW, ZoneOffset.UTC);

  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.stdoutTty = false;
  }

  private JsonNode json(String... argv) {
    Cli.Result r = cli.run(argv);
    assertEquals(0, r.code(), r.err());
    JsonOutputs.checkOutput(List.of(argv), r.code(), r.out());
    return JsonSchemas.parse(r.out());
  }

  @Test
  void showJsonGainsTheReasonAsTextAndAsFacts() {
    cli.api.add(Jobs.job(4, JobState.WAITING));
    cli.api.waits.put(4L, new WaitReason.GpusBusy(2, 1, List.of(JOB_3, FakeApi.holder(2, GpuState.EXTERNAL, null))));
    JsonNode w = json("show", "--json", "4").get("wait_reason");
    assertEquals("gpus_busy", w.get("code").asText());
    assertEquals("GPUs busy", w.get("brief").asText());
    assertEquals("needs 2 GPUs, 1 free (GPU 0: job 3; GPU 2: outside process)", w.get("text").asText());
    assertEquals(2, w.get("gpus_wanted").asInt());
    assertEquals(1, w.get("gpus_free").asInt());
    assertEquals(3, w.get("busy_gpus").get(0).get("job_id").asLong());
    assertEquals("EXTERNAL", w.get("busy_gpus").get(1).get("state").asText());
    assertTrue(w.get("busy_gpus").get(1).get("held_by").isNull());
  }

  @Test
  void psJsonGivesEachWaitingJobItsReasonAndEveryOtherJobNull() {
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    cli.api.add(Jobs.job(2, JobState.WAITING));
    cli.api.waits.put(2L, new WaitReason.After(1, true));
    for (List<String> argv : List.of(List.of("ps", "--json"), List.of("ps", "--all", "--json"))) {
      JsonNode all = json(argv.toArray(String[]::new));
      for (JsonNode j : all) {
        JsonNode w = j.get("wait_reason");
        if (j.get("id").asLong() == 1) assertTrue(w.isNull(), w.toString());
        else {
          assertEquals("after_ok", w.get("code").asText());
          assertEquals("waiting for job 1 to succeed", w.get("text").asText());
          assertEquals(1, w.get("job_id").asLong());
        }
      }
    }
  }

  @Test
  void aJobThatNoLongerWaitsHasNoReasonEvenWhenOneIsLeftOver() {
    cli.api.add(Jobs.job(4, JobState.RUNNING));
    cli.api.waits.put(4L, new WaitReason.QueueHeld());
    assertTrue(json("show", "--json", "4").get("wait_reason").isNull());
  }

  /** One reason of every kind, the nested ones included. */
  private static List<WaitReason> everyKind() {
    WaitReason busy = new WaitReason.GpusBusy(1, 0, List.of(JOB_3));
    return List.of(new WaitReason.Held(5), new WaitReason.QueueHeld(), new WaitReason.GroupHeld("sweep", "held by the user"),
        new WaitReason.After(3, false), new WaitReason.After(3, true), new WaitReason.AfterFailed(3, JobState.FAILED),
        new WaitReason.AfterPreempted(3), new WaitReason.Begins(NOW.plusSeconds(600), NOW), new WaitReason.GroupAtMax("sweep", 2),
        new WaitReason.CpuJobsAtMax(), new WaitReason.NoGpuReading(), busy, new WaitReason.FewerFree(2),
        new WaitReason.NoGpuFits(1, VRAM), new WaitReason.TooFewFit(2, VRAM, List.of(1)),
        new WaitReason.FittingGpusBusy(1, VRAM, List.of(0), 0, List.of(JOB_3)),
        new WaitReason.SharedGpusFull(1, SHARED, List.of(new GpuBlock.Unfit(0), new GpuBlock.Taken(1, JOB_3, null),
            new GpuBlock.AtCap(2, 2, 2), new GpuBlock.NoRoom(3, -5))),
        new WaitReason.SharedGpusFull(1, SHARED, List.of(new GpuBlock.OverShare(0, 4, 20480, 19046))),
        new WaitReason.Gathering(busy, Duration.ofMinutes(5)), new WaitReason.GatheringFor(3, 2, Duration.ofMinutes(5), List.of(1)),
        new WaitReason.FailFastCheck("sweep", 2), BOOKED, new WaitReason.Booked(busy, 1, BOOKED),
        new WaitReason.InTurn(busy, List.of(new WaitReason.TurnGpu(1, "GPU-1", 20), new WaitReason.TurnGpu(null, "GPU-9", 3))),
        new WaitReason.UserLimit("alice", 4, 4),
        new WaitReason.FairShare("alice", 4, 8, 2, List.of(new WaitReason.Wanting("bob", 2)), Duration.ofSeconds(30)),
        new WaitReason.StartFailed(3, "working directory /gone no longer exists", Duration.ofSeconds(4)),
        new WaitReason.ToSlurm(), new WaitReason.SlurmQueued("4411"));
  }

  @Test
  void everyKindOfReasonMatchesTheSchemaAndSaysWhatGqPrints() {
    Set<Code> seen = EnumSet.noneOf(Code.class);
    for (WaitReason r : everyKind()) {
      ObjectNode job = JsonView.job(Jobs.job(5, JobState.WAITING), r);
      JsonSchemas.check("show.schema.json", job);
      JsonNode w = job.get("wait_reason");
      assertEquals(r.code().key(), w.get("code").asText());
      assertEquals(r.brief(), w.get("brief").asText());
      assertEquals(r.text(), w.get("text").asText());
      seen.add(r.code());
    }
    assertEquals(EnumSet.allOf(Code.class), seen);
  }

  @Test
  void nestedReasonsAndBookingsKeepTheirFacts() {
    WaitReason busy = new WaitReason.GpusBusy(1, 0, List.of(JOB_3));
    JsonNode booked = WaitJson.of(new WaitReason.Booked(busy, 1, BOOKED));
    assertEquals("gpus_busy", booked.get("behind").get("code").asText());
    assertEquals("bob", booked.get("booking").get("booked_by").asText());
    assertEquals("2026-03-02T10:10:00Z", booked.get("booking").get("start").asText());
    assertFalse(booked.get("booking").get("in_window").asBoolean());
    JsonNode turn = WaitJson.of(new WaitReason.InTurn(busy, List.of(new WaitReason.TurnGpu(1, "GPU-1", 20))));
    assertEquals("gpus_busy", turn.get("code").asText(), "a turn's GPUs keep the reason's code");
    assertEquals(1, turn.get("gpus_wanted").asInt());
    assertEquals(20, turn.get("turn_gpus").get(0).get("seconds_left").asLong());
    JsonNode full = WaitJson.of(new WaitReason.SharedGpusFull(1, SHARED, List.of(new GpuBlock.NoRoom(3, 1024))));
    assertEquals(1L << 30, full.get("blocked_gpus").get(0).get("free_memory").asLong(), "memory in bytes");
    assertEquals(2, full.get("need").get("per_gpu").asInt());
  }

  @Test
  void anUnknownCodeOrAMissingTextFailsTheSchema() {
    ObjectNode job = JsonView.job(Jobs.job(5, JobState.WAITING), new WaitReason.QueueHeld());
    ObjectNode bogus = job.deepCopy();
    ((ObjectNode) bogus.get("wait_reason")).put("code", "bogus");
    assertFalse(JsonSchemas.problems("show.schema.json", bogus).isEmpty());
    ObjectNode textless = job.deepCopy();
    ((ObjectNode) textless.get("wait_reason")).remove("text");
    assertFalse(JsonSchemas.problems("show.schema.json", textless).isEmpty());
  }
}
