package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiReplies.BatchOutcome;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.api.ApiReplies.SubmitResult;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.progress.Estimate;
import dev.gq.core.progress.Source;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every {@code --json} output, as the real commands print it from a fake daemon, is valid against its
 * schema in docs/schemas, and the schemas are strict enough that a missing or renamed field fails.
 */
class JsonOutputSchemaTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.stdoutTty = false;
  }

  /** Runs a command line that prints JSON and checks its output against its schema; returns the output. */
  private String checked(String... argv) {
    Cli.Result r = cli.run(argv);
    assertEquals(0, r.code(), r.err());
    assertFalse(r.out().isBlank(), "printed nothing");
    JsonOutputs.checkOutput(List.of(argv), r.code(), r.out());
    return r.out();
  }

  /** Jobs in every state, with and without GPUs, dependencies, retries, a time limit and a group. */
  private void jobs() {
    JobSpec full = new JobSpec(List.of("python", "train.py", "--lr", "3e-4"), "/work", Map.of("HF_TOKEN", "x"), 2, "lr",
        "sweep", "lr/3e-4", List.of(new Dependency(1, false), new Dependency(2, true)), 3, Duration.ofHours(2));
    long id = 1;
    for (JobState s : JobState.values()) cli.api.add(Jobs.job(id++, s, full));
    cli.api.add(Jobs.job(id++, JobState.RUNNING, Jobs.spec(0, null, null, null, "true")));
    Job retry = Jobs.job(id, JobState.WAITING, full);
    cli.api.add(new Job(id, full, JobState.WAITING, retry.submitTime(), null, null, List.of(), null, null,
        retry.logPath(), null, retry.tag(), 6L));
  }

  @Test
  void psAndShowMatchTheirSchemas() {
    jobs();
    JsonNode all = JsonSchemas.parse(checked("ps", "--all", "--json"));
    assertEquals(cli.api.jobs.size(), all.size());
    for (long id : cli.api.jobs.keySet()) checked("show", "--json", String.valueOf(id));
    assertEquals("[]", checked("ps", "--json", "--state", "timeout", "--group", "none").strip());
  }

  @Test
  void psThatSkipsADamagedRecordStillPrintsAValidList() {
    jobs();
    cli.api.unreadable.add(2L);
    Cli.Result r = cli.run("ps", "--all", "--json");
    assertEquals(1, r.code(), r.err());
    assertTrue(JsonSchemas.isJson(r.out()), r.out());
    JsonSchemas.check("ps.schema.json", JsonSchemas.parse(r.out()));
  }

  @Test
  void gpuMatchesItsSchema() {
    cli.api.gpus = new GqApi.GpuReport(List.of(
        new GpuStatus(0, "GPU-a", "H100", GpuState.FREE, null, List.of(), 80L << 30, 0, null),
        new GpuStatus(1, "GPU-b", "H100", GpuState.RUNNING, 4L, List.of(new GpuProcess(1234, 1L << 30)), 80L << 30, 1L << 30, null),
        new GpuStatus(2, "GPU-c", "H100", GpuState.EXTERNAL, null, List.of(new GpuProcess(99, -1)), 80L << 30, 5, "pid 99 is not gq's"),
        new GpuStatus(3, "GPU-d", "unknown", GpuState.UNKNOWN, null, List.of(), 0, 0, "cannot read: GPU is lost")),
        "fake GPUs", true, null);
    assertEquals(4, JsonSchemas.parse(checked("gpu", "--json")).size());
  }

  @Test
  void etaMatchesItsSchema() {
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    cli.api.add(Jobs.job(2, JobState.RUNNING));
    cli.api.add(Jobs.job(3, JobState.RUNNING));
    cli.api.estimates.put(1L, new Estimate(530, 1000, 53.0, 2.5, Duration.ofSeconds(188), Source.TQDM));
    cli.api.estimates.put(2L, new Estimate(12, 0, Double.NaN, Double.NaN, null, Source.TQDM));
    assertEquals(3, JsonSchemas.parse(checked("eta", "--json")).size());
    ObjectNode bad = (ObjectNode) JsonSchemas.parse(checked("eta", "--json", "1")).get(0);
    assertFalse(JsonSchemas.problems("eta.schema.json", JsonView.object().arrayNode().add(bad.without("source"))).isEmpty());
  }

  @Test
  void groupsMatchesItsSchema() {
    cli.api.groupList = List.of(
        new GroupSummary("broken", Map.of(JobState.FAILED, 3, JobState.WAITING, 5), 0, "3 jobs in a row failed", true),
        new GroupSummary("sweep", Map.of(JobState.DONE, 3), 1, null, false));
    assertEquals(2, JsonSchemas.parse(checked("groups", "--json")).size());
  }

  @Test
  void whoMatchesItsSchema() {
    cli.api.who = new GqApi.WhoReport("at most 2 GPUs per user while others wait; fair turn 30s", true, List.of(
        new dev.gq.core.schedule.FairWho.Row("alice", 1001, 4, 4, 6, 6, Jobs.T0),
        new dev.gq.core.schedule.FairWho.Row("bob", 1002, 0, 0, 2, 2, null)), Map.of("demand-1003-0123456789abcdef.demand", "its daemon (pid 9) has ended"));
    JsonNode who = JsonSchemas.parse(checked("who", "--json"));
    assertEquals(2, who.get("users").size());
    for (String field : JsonSchemas.fields("who.schema.json")) {
      ObjectNode broken = (ObjectNode) who.deepCopy();
      broken.remove(field);
      assertFalse(JsonSchemas.problems("who.schema.json", broken).isEmpty(), "who without " + field);
    }
  }

  @Test
  void eachEventLineMatchesItsSchema() {
    java.time.Instant t0 = Jobs.T0;
    Map<String, Object> submitted = new LinkedHashMap<>();
    submitted.put("argv", List.of("bash", "-c", "exit 3"));
    submitted.put("name", null);
    cli.api.events.add(new StoredEvent(1, t0, "JobSubmitted", 1L, submitted));
    cli.api.events.add(new StoredEvent(2, t0.plusMillis(1500), "QueuePaused", null, Map.of()));
    cli.api.events.add(new StoredEvent(3, t0.plusSeconds(3), "JobExited", 1L, Map.of("exit_code", 3L)));
    assertEquals(3, checked("events", "--json").lines().count());
  }

  @Test
  void submitResultsMatchTheirSchemas() throws Exception {
    checked("run", "--json", "python", "x.py");
    checked("-g", "2", "--json", "python", "x.py");
    Files.writeString(dir.resolve("train.sh"), "#gq --gpus=1\npython train.py\n");
    cli.api.nextSubmit = new SubmitResult(3, true, JobState.DONE, "Skipped: key 'k' is already DONE as job 3");
    checked("submit", "--json", "--key", "k", "train.sh");
    cli.api.nextSubmit = null;
    Files.writeString(dir.resolve("jobs.txt"), "python a.py\n{\"argv\": [\"python\", \"b.py\"], \"key\": \"b\"}\n");
    assertEquals(2, JsonSchemas.parse(checked("submit", "--batch", "jobs.txt", "--json")).size());
    cli.api.nextBatch = List.of(new BatchOutcome(1, 7, true, JobState.RUNNING, "Skipped: key 'b' is already RUNNING as job 7"));
    checked("submit", "--batch", "jobs.txt", "--json");
  }

  @Test
  void theSchemaOfAnOutputIsReadFromGqsOwnOptions() {
    assertEquals("run", JsonOutputs.jsonCommand(List.of("-g", "1", "--json", "python", "x.py")));
    assertEquals("run", JsonOutputs.jsonCommand(List.of("--verbose", "run", "--json", "x")));
    assertNull(JsonOutputs.jsonCommand(List.of("run", "jq", "--json")), "the job's own --json");
    assertEquals("submit --batch", JsonOutputs.jsonCommand(List.of("submit", "--json", "--batch", "-")));
    assertEquals("events", JsonOutputs.jsonCommand(List.of("events", "--json", "--job", "3")));
    assertNull(JsonOutputs.jsonCommand(List.of("ps")));
    assertNull(JsonOutputs.jsonCommand(List.of("ps", "--json", "--no-such-option")), "refused: its error follows error.schema.json");
  }

  /** Runs a command line that fails; checks its JSON error on stdout and the same line on stderr; returns the message. */
  private String jsonError(int code, String... argv) {
    Cli.Result r = cli.run(argv);
    assertEquals(code, r.code(), r.err());
    assertEquals(1, r.out().lines().count(), "one line: " + r.out());
    assertTrue(JsonOutputs.isErrorObject(r.out()), r.out());
    JsonOutputs.checkOutput(List.of(argv), r.code(), r.out());
    JsonNode e = JsonSchemas.parse(r.out());
    assertEquals(code, e.get("exit_code").asInt());
    assertTrue(r.err().startsWith("gq: " + e.get("error").asText() + "\n"), r.err());
    return e.get("error").asText();
  }

  @Test
  void aRefusalOrAUsageErrorUnderJsonIsAJsonErrorOnStdout() {
    cli.api.add(Jobs.job(1, JobState.DONE));
    assertEquals("job 999 does not exist", jsonError(1, "show", "999", "--json"));
    assertTrue(jsonError(2, "ps", "--json", "--bogus").contains("--bogus"));
    assertTrue(jsonError(2, "ps", "--bogus", "--json").contains("--bogus"));
    assertTrue(jsonError(2, "ps", "--limit", "x", "--json").contains("--limit"), "--json after the failing option");
    assertTrue(jsonError(2, "ps", "--limit", "0", "--json").contains("--limit must be at least 1"), "refused by the command");
    assertTrue(jsonError(2, "psx", "--json").contains("psx"), "an unknown command");
    assertTrue(jsonError(2, "-g", "x", "--json", "python", "t.py").contains("-g"));
    jsonError(2, "events", "--json", "--since", "tomorrow-ish");
    jsonError(2, "notify", "list", "--json", "--bogus");
    cli.api.crashWith = () -> new IllegalStateException("boom");
    assertTrue(jsonError(1, "ps", "--json").startsWith("internal error: "), "an unexpected failure too");
    assertFalse(JsonSchemas.problems(JsonOutputs.ERROR_SCHEMA, JsonSchemas.parse("{\"error\":\"a\\nb\",\"exit_code\":1}")).isEmpty(),
        "one line");
  }

  @Test
  void withoutGqsOwnJsonAFailureKeepsStdoutEmpty() {
    Cli.Result r = cli.run("show", "999");
    assertEquals(1, r.code());
    assertEquals("", r.out());
    r = cli.run("run", "-g", "x", "jq", "--json");
    assertEquals(2, r.code(), r.err());
    assertEquals("", r.out(), "the job's own --json asks gq for nothing");
    r = cli.run("ps", "--bogus");
    assertEquals(2, r.code());
    assertEquals("", r.out());
  }

  @Test
  void everyCommandWithJsonHasASchema() {
    List<String> withJson = new ArrayList<>();
    collect(Gq.tree(cli.io, cli.api), "", withJson);
    assertTrue(withJson.containsAll(List.of("run", "submit", "ps", "show", "gpu", "groups", "events", "eta")), withJson.toString());
    for (String command : withJson) {
      assertTrue(JsonOutputs.SCHEMAS.containsKey(command), "'gq " + command + " --json' has no schema");
    }
    for (String schema : JsonOutputs.SCHEMAS.values()) assertTrue(Files.isRegularFile(JsonSchemas.DIR.resolve(schema)), schema);
  }

  private static void collect(picocli.CommandLine cl, String prefix, List<String> out) {
    // each command once, by its own name (an alias such as 'ls' is the same command as 'ps')
    new java.util.LinkedHashSet<>(cl.getSubcommands().values()).forEach(sub -> {
      String path = (prefix + " " + sub.getCommandName()).strip();
      if (sub.getCommandSpec().findOption("--json") != null) out.add(path);
      collect(sub, path, out);
    });
  }

  @Test
  void everySchemaIsAValidDraft202012SchemaAndListedInTheReadme() throws Exception {
    String readme = Files.readString(JsonSchemas.DIR.resolve("README.md"));
    try (var files = Files.list(JsonSchemas.DIR)) {
      List<String> names = files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".schema.json")).toList();
      assertEquals(16, names.size(), names.toString());
      for (String n : names) {
        assertEquals(List.of(), JsonSchemas.metaProblems(n), n);
        assertTrue(readme.contains("(" + n + ")"), n + " is not linked from docs/schemas/README.md");
      }
    }
  }

  @Test
  void aMissingOrRenamedFieldOrAWrongTypeFails() {
    ObjectNode job = JsonView.job(Jobs.job(5, JobState.FAILED));
    JsonSchemas.check("show.schema.json", job);
    for (String field : JsonSchemas.fields("show.schema.json")) {
      ObjectNode broken = job.deepCopy();
      JsonNode v = broken.remove(field);
      broken.set(field + "_renamed", v);
      assertFalse(JsonSchemas.problems("show.schema.json", broken).isEmpty(), "renamed " + field);
    }
    assertFalse(JsonSchemas.problems("show.schema.json", job.deepCopy().put("state", "HELD")).isEmpty());
    assertFalse(JsonSchemas.problems("show.schema.json", job.deepCopy().put("exit_code", "3")).isEmpty());
    assertFalse(JsonSchemas.problems("show.schema.json", job.deepCopy().put("end_time", "yesterday")).isEmpty());
    assertFalse(JsonSchemas.problems("show.schema.json", job.deepCopy().put("submit_time", "2025-13-01T10:00:00Z")).isEmpty());
    assertFalse(JsonSchemas.problems("show.schema.json", job.deepCopy().putArray("argv")).isEmpty(), "an empty argv");
    assertThrows(AssertionError.class, () -> JsonOutputs.checkOutput(List.of("ps", "--json"), 0, "[" + job.deepCopy().without("pid") + "]"));
    assertThrows(AssertionError.class, () -> JsonOutputs.checkOutput(List.of("show", "--json", "5"), 0, job + "\n" + job));
    assertThrows(AssertionError.class, () -> JsonOutputs.checkOutput(List.of("ps", "--json"), 1, "[" + job.deepCopy().without("pid") + "]"),
        "a failed command's whole output is checked too");
    JsonOutputs.checkOutput(List.of("ps", "--json"), 1, "[\n  " + job + ",\n");
  }

  /**
   * Each field a schema lists is in the real output, and leaving it out makes the output invalid.
   * Fields an output has beyond its schema are allowed (outputs may gain fields).
   */
  @Test
  void everyFieldASchemaListsIsPrintedAndRequired() throws Exception {
    jobs();
    cli.api.groupList = List.of(new GroupSummary("g", Map.of(), 0, null, false));
    cli.api.gpus = new GqApi.GpuReport(List.of(new GpuStatus(0, "GPU-a", "H100", GpuState.RUNNING, 1L,
        List.of(new GpuProcess(1, 2)), 10, 5, null)), "fake GPUs", true, null);
    cli.api.events.add(new StoredEvent(1, Jobs.T0, "QueuePaused", null, Map.of()));
    Files.writeString(dir.resolve("jobs.txt"), "true\n");
    Map<String, List<String>> outputs = Map.of(
        "show.schema.json", List.of("show", "--json", "1"),
        "ps.schema.json", List.of("ps", "--json"),
        "gpu.schema.json", List.of("gpu", "--json"),
        "groups.schema.json", List.of("groups", "--json"),
        "events.schema.json", List.of("events", "--json"),
        "submit.schema.json", List.of("run", "--json", "true"),
        "submit-batch.schema.json", List.of("submit", "--batch", "jobs.txt", "--json"));
    outputs.forEach((schema, argv) -> {
      JsonNode value = JsonSchemas.parse(checked(argv.toArray(String[]::new)));
      List<String> fields = JsonSchemas.fields(schema);
      assertTrue(fields.size() >= 4, schema + ": " + fields);
      for (String field : fields) {
        JsonNode broken = value.deepCopy();
        assertTrue((broken.isArray() ? broken.get(0) : broken).has(field), schema + ": no " + field + " in " + value);
        ((ObjectNode) (broken.isArray() ? broken.get(0) : broken)).remove(field);
        assertFalse(JsonSchemas.problems(schema, broken).isEmpty(), schema + " without " + field);
      }
    });
  }

  @Test
  void addedFieldsStayValid() {
    ObjectNode job = JsonView.job(Jobs.job(5, JobState.RUNNING));
    job.put("elapsed_seconds", 12);
    JsonSchemas.check("show.schema.json", job);
    JsonSchemas.check("ps.schema.json", JsonView.object().arrayNode().add(job));
  }
}
