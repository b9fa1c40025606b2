package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventsCommandTest {
  static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  static Map<String, Object> fields(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
    return m;
  }

  void add(long seq, long secondsAfterT0, String type, Long job, Map<String, Object> fields) {
    cli.api.events.add(new StoredEvent(seq, T0.plusSeconds(secondsAfterT0), type, job, fields));
  }

  /** Job 1 runs and fails with 3; job 2 is cancelled while waiting; the queue is held in between. */
  void history() {
    add(1, 0, "JobSubmitted", 1L, fields("argv", List.of("bash", "-c", "exit 3"), "cwd", "/w", "requested_gpus", 2L,
        "name", null, "group", "sweep", "tag", "t1"));
    add(2, 0, "JobReserved", 1L, fields("gpus", List.of(0L, 1L), "gpu_uuids", List.of("GPU-a", "GPU-b")));
    add(3, 1, "JobLaunched", 1L, fields("pid", 1234L, "boot_id", "b"));
    add(4, 2, "QueuePaused", null, fields());
    add(5, 3, "JobExited", 1L, fields("exit_code", 3L, "reason", "exited with code 3"));
    add(6, 60, "JobSubmitted", 2L, fields("argv", List.of("true"), "requested_gpus", 1L));
    add(7, 61, "JobCancelled", 2L, fields("reason", "cancelled by the user"));
  }

  @Test
  void printsEveryEventOldestFirstCompactly() {
    history();
    Cli.Result r = cli.run("events");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        1 2026-11-29T10:00:00.000Z JobSubmitted       job=1 argv="bash -c 'exit 3'" cwd=/w requested_gpus=2 group=sweep tag=t1
        2 2026-11-29T10:00:00.000Z JobReserved        job=1 gpus=0,1 gpu_uuids=GPU-a,GPU-b
        3 2026-11-29T10:00:01.000Z JobLaunched        job=1 pid=1234 boot_id=b
        4 2026-11-29T10:00:02.000Z QueuePaused
        5 2026-11-29T10:00:03.000Z JobExited          job=1 exit_code=3 reason="exited with code 3"
        6 2026-11-29T10:01:00.000Z JobSubmitted       job=2 argv=true requested_gpus=1
        7 2026-11-29T10:01:01.000Z JobCancelled       job=2 reason="cancelled by the user"
        """, r.out());
  }

  @Test
  void emptyListsAndTextsAreLeftOutOfATextLineButKeptInJson() throws Exception {
    add(1, 0, "JobSubmitted", 1L, fields("argv", List.of("true"), "after", List.of(), "waits_for", List.of(), "name", "",
        "env_names", Map.of()));
    Cli.Result r = cli.run("events");
    assertEquals("1 2026-11-29T10:00:00.000Z JobSubmitted       job=1 argv=true\n", r.out());
    Cli.Result json = cli.run("events", "--json");
    assertTrue(json.out().contains("\"after\":[]") && json.out().contains("\"waits_for\":[]"), json.out());
  }

  @Test
  void textLinesShowHiddenCharactersAsJsonEscapes() throws Exception {
    add(1, 0, "JobSubmitted", 1L, fields("argv", List.of("echo", "a\u202eb"), "name", "n\u2028m", "group", "g\u0085\u007f"));
    String line = cli.run("events").out().strip();
    assertEquals("1 2026-11-29T10:00:00.000Z JobSubmitted       job=1 argv=\"echo $'a\\\\u202eb'\" name=\"n\\u2028m\" group=\"g\\u0085\\u007f\"", line);
    // still JSON: the escape reads back as the stored text
    assertEquals("n\u2028m", new com.fasterxml.jackson.databind.ObjectMapper().readValue(line.substring(line.indexOf("name=") + 5, line.indexOf(" group=")), String.class));
  }

  @Test
  void jsonIsOneObjectPerLineWithStableNames() throws Exception {
    history();
    Cli.Result r = cli.run("events", "--json", "--job", "1");
    List<String> lines = r.out().lines().toList();
    assertEquals(4, lines.size(), r.out());
    JsonNode first = new ObjectMapper().readTree(lines.get(0));
    assertEquals(List.of("seq", "time", "type", "job_id", "fields"), names(first));
    assertEquals("2026-11-29T10:00:00.000Z", first.get("time").asText());
    assertEquals("bash", first.get("fields").get("argv").get(0).asText());
    assertTrue(first.get("fields").get("name").isNull(), first.toString());
    JsonNode last = new ObjectMapper().readTree(lines.get(3));
    assertEquals("JobExited", last.get("type").asText());
    assertEquals(1, last.get("job_id").asLong());
    assertEquals(3, last.get("fields").get("exit_code").asInt());
  }

  @Test
  void aDrainLineNamesTheGpuByIndexBeforeItsUuidAndJsonKeepsTheStoredFields() throws Exception {
    cli.api.gpus = new GqApi.GpuReport(List.of(new GpuStatus(3, "GPU-c", "H100", GpuState.DRAINED, null, List.of(), 80L << 30, 0,
        null)), "NVML", false, null);
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("uuid", "GPU-c");
    fields.put("reason", "for-bob");
    add(1, 0, "GpuDrained", null, fields);
    assertTrue(cli.run("events").out().endsWith(" GpuDrained gpu=3 uuid=GPU-c reason=for-bob\n"), cli.run("events").out());
    JsonNode json = new ObjectMapper().readTree(cli.run("events", "--json").out()).get("fields");
    assertEquals(2, json.size(), "the JSON fields stay as stored: " + json);
  }

  @Test
  void anEventAboutNoJobHasANullJobId() throws Exception {
    history();
    String line = cli.run("events", "--json").out().lines().toList().get(3);
    assertEquals("{\"seq\":4,\"time\":\"2026-11-29T10:00:02.000Z\",\"type\":\"QueuePaused\",\"job_id\":null,\"fields\":{}}", line);
  }

  @Test
  void filtersByJobAndSince() {
    history();
    List<String> seqs = cli.run("events", "--job", "2", "--since", "2026-11-29T10:00:30Z").out().lines()
        .map(l -> l.substring(0, l.indexOf(' '))).toList();
    assertEquals(List.of("6", "7"), seqs);
    assertEquals(List.of("events after 0 job 2 since 2026-11-29T10:00:30Z limit " + EventsCommand.PAGE), cli.api.eventCalls);
  }

  @Test
  void limitKeepsTheLastMatchingEvents() {
    history();
    Cli.Result r = cli.run("events", "--limit", "2");
    assertEquals(List.of("6", "7"), r.out().lines().map(l -> l.substring(0, l.indexOf(' '))).toList());
    assertEquals("tail job null since null count 2", cli.api.eventCalls.get(0));
  }

  @Test
  void aLongHistoryIsReadInPages() {
    for (int i = 1; i <= EventsCommand.PAGE * 2 + 3; i++) add(i, i, "JobCancelRequested", (long) i, fields());
    Cli.Result r = cli.run("events");
    assertEquals(EventsCommand.PAGE * 2 + 3, r.out().lines().count());
    assertEquals(3, cli.api.eventCalls.size(), cli.api.eventCalls.toString());
    assertTrue(cli.api.eventCalls.get(2).startsWith("events after " + EventsCommand.PAGE * 2 + " "));
  }

  @Test
  void followPrintsNewEventsUntilTheCallerGoesAway() throws Exception {
    history();
    CompletableFuture<Cli.Result> follow = CompletableFuture.supplyAsync(() -> cli.run("events", "-f", "--job", "3"));
    while (cli.api.eventCalls.size() < 2) Thread.onSpinWait();
    add(8, 70, "JobSubmitted", 3L, fields("argv", List.of("x")));
    while (!cli.io.stdout().contains("job=3")) Thread.onSpinWait();
    add(9, 71, "JobReserved", 3L, fields("gpus", List.of(1L)));
    while (!cli.io.stdout().contains("gpus=1")) Thread.onSpinWait();
    cli.io.closed = true;
    Cli.Result r = follow.get(10, TimeUnit.SECONDS);
    assertEquals(0, r.code());
    assertEquals(List.of("8", "9"), r.out().lines().map(l -> l.substring(0, l.indexOf(' '))).toList());
  }

  @Test
  void followAloneStartsFromTheLastTenEvents() throws Exception {
    for (int i = 1; i <= 15; i++) add(i, i, "JobCancelRequested", (long) i, fields());
    CompletableFuture<Cli.Result> follow = CompletableFuture.supplyAsync(() -> cli.run("events", "--follow"));
    while (cli.api.eventCalls.size() < 3) Thread.onSpinWait();
    cli.io.closed = true;
    Cli.Result r = follow.get(10, TimeUnit.SECONDS);
    assertEquals(10, r.out().lines().count(), r.out());
    assertTrue(r.out().startsWith("6 "), r.out());
  }

  @Test
  void badValuesAreUsageErrors() {
    assertUsage(cli.run("events", "--since", "yesterday"),
        "gq: invalid time 'yesterday' for --since; use an ISO-8601 time (2026-11-29T10:00:00Z), a date (2026-11-29) or an age (10m, 2h, 3d)");
    assertUsage(cli.run("events", "--limit", "0"), "gq: --limit must be at least 1, not 0");
    assertUsage(cli.run("events", "--job", "x"), "gq: invalid job id 'x'; use a number like 12");
    assertEquals(List.of(), cli.api.eventCalls);
  }

  private static void assertUsage(Cli.Result r, String line) {
    assertEquals(2, r.code());
    assertEquals(line + "\nTry 'gq events --help'.\n", r.err());
  }

  @Test
  void aRefusalIsOneLine() {
    cli.api.refuseWith = new ApiException("cannot read the event journal: disk I/O error");
    Cli.Result r = cli.run("events");
    assertEquals(1, r.code());
    assertEquals("gq: cannot read the event journal: disk I/O error\n", r.err());
  }

  @Test
  void oddTextIsQuotedSoALineStaysOneLine() {
    add(1, 0, "JobLaunchFailed", 1L, fields("reason", "no such file\nor directory", "argv", List.of("a b", "c")));
    assertEquals("1 2026-11-29T10:00:00.000Z JobLaunchFailed    job=1 reason=\"no such file\\nor directory\" argv=\"'a b' c\"\n",
        cli.run("events").out());
  }

  private static List<String> names(JsonNode n) {
    List<String> list = new java.util.ArrayList<>();
    n.fieldNames().forEachRemaining(list::add);
    return list;
  }
}
