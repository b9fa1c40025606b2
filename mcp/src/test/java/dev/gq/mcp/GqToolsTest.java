package dev.gq.mcp;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.mcp.GqRunner.Outcome;
import dev.gq.mcp.Tool.Reply;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tool layer against a scripted runner: what each tool runs, dry runs against confirmed calls, and bad input. */
class GqToolsTest {
  static final Instant NOW = Instant.parse("2026-05-01T12:00:00Z");
  static final String PS = "[{\"id\":12,\"name\":\"train\",\"state\":\"RUNNING\",\"start_time\":\"2026-05-01T10:58:00Z\","
      + "\"end_time\":null,\"gpu_indices\":[0,1],\"group\":\"sweep\"},"
      + "{\"id\":14,\"name\":\"eval\",\"state\":\"WAITING\",\"start_time\":null,\"end_time\":null,\"gpu_indices\":[],\"group\":null}]";

  /** Records every command line and answers ps with {@link #PS}, everything else with "ok". */
  static final class FakeRunner implements GqRunner {
    final List<List<String>> calls = new ArrayList<>();
    final List<String> dirs = new ArrayList<>();
    Outcome next;

    @Override
    public Outcome run(List<String> argv, String cwd) {
      calls.add(argv);
      dirs.add(cwd);
      if (next != null) return next;
      return new Outcome(0, argv.get(0).equals("ps") ? PS : "ok\n", "");
    }

    List<List<String>> changing() {
      return calls.stream().filter(c -> !c.get(0).equals("ps")).toList();
    }
  }

  final FakeRunner runner = new FakeRunner();
  final GqTools tools = new GqTools(runner, "/home/u/proj", () -> NOW);

  @Test
  void readToolsRunTheMatchingCommandWithJson() {
    tools.call("ps", Map.of("all", true, "group", "sweep", "jobs", List.of(3, 4)));
    tools.call("show", Map.of("job", 12));
    tools.call("logs", Map.of("job", 12, "lines", 20));
    tools.call("gpu", null);
    tools.call("groups", Map.of("group", "xsum"));
    tools.call("who", null);
    tools.call("eta", Map.of());
    tools.call("report", Map.of("since", "30d", "group", "sweep"));
    tools.call("events", Map.of("since", "1h", "job", 12));
    assertEquals(List.of(
        List.of("ps", "--json", "--all", "--group=sweep", "3", "4"),
        List.of("show", "--json", "12"),
        List.of("logs", "-n", "20", "12"),
        List.of("gpu", "--json"),
        List.of("groups", "--json", "--", "xsum"),
        List.of("who", "--json"),
        List.of("eta", "--json"),
        List.of("report", "--json", "--since=30d", "--group=sweep"),
        List.of("events", "--json", "--since=1h", "--job=12", "--limit=" + ReadTools.DEFAULT_EVENTS)), runner.calls);
  }

  @Test
  void submitWithoutConfirmQueuesNothingAndShowsTheCommand() {
    Reply r = tools.call("submit", Map.of("argv", List.of("python", "train.py", "--lr", "3e-4 x"), "gpus", 2,
        "group", "sweep", "key", "lr=3e-4"));
    assertFalse(r.error(), r.text());
    assertTrue(runner.calls.isEmpty(), "a dry run runs nothing: " + runner.calls);
    assertTrue(r.text().contains("gq run --json -g 2 --group=sweep --key=lr=3e-4 -- python train.py --lr '3e-4 x'"), r.text());
    assertTrue(r.text().contains("confirm: true"), r.text());
  }

  @Test
  void submitWithConfirmRunsTheCommandInItsDirectory() {
    Reply r = tools.call("submit", Map.of("argv", List.of("python", "train.py"), "confirm", true, "cwd", "/tmp"));
    assertFalse(r.error(), r.text());
    assertEquals(List.of(List.of("run", "--json", "-g", "1", "--", "python", "train.py")), runner.calls);
    assertEquals(List.of("/tmp"), runner.dirs);
  }

  @Test
  void submitPassesTheMemoryAndTypeEachGpuMustHave() {
    Reply r = tools.call("submit", Map.of("argv", List.of("python", "eval.py"), "vram", "40G", "gpu_type", "H100,A100",
        "confirm", true));
    assertFalse(r.error(), r.text());
    assertEquals(List.of(List.of("run", "--json", "-g", "1", "--vram=40G", "--gpu-type=H100,A100", "--", "python", "eval.py")),
        runner.calls);
  }

  @Test
  void submitPassesTheShareAndTheCapPerGpu() {
    Reply r = tools.call("submit", Map.of("argv", List.of("python", "eval.py"), "vram", "20G", "share", true, "per_gpu", 4,
        "confirm", true));
    assertFalse(r.error(), r.text());
    assertEquals(List.of(List.of("run", "--json", "-g", "1", "--vram=20G", "--share", "--per-gpu=4", "--", "python", "eval.py")),
        runner.calls);
  }

  @Test
  void cancelWithoutConfirmNamesTheJobsTheirStateAndHowLongTheyRan() {
    Reply r = tools.call("cancel", Map.of("jobs", List.of(12, 14, 99)));
    assertFalse(r.error(), r.text());
    assertTrue(runner.changing().isEmpty(), "a dry run cancels nothing: " + runner.calls);
    assertTrue(r.text().contains("command: gq cancel --yes 12 14 99"), r.text());
    assertTrue(r.text().contains("job 12 'train' RUNNING, running for 1h02m, GPUs 0,1, group sweep"), r.text());
    assertTrue(r.text().contains("job 14 'eval' WAITING"), r.text());
    assertTrue(r.text().contains("job 99: no such job"), r.text());
  }

  @Test
  void cancelWithConfirmCancels() {
    tools.call("cancel", Map.of("jobs", List.of(12), "confirm", true));
    assertEquals(List.of(List.of("cancel", "--yes", "12")), runner.calls);
  }

  @Test
  void preemptDryRunNamesTheJobThatGetsTheGpusAndConfirmPreempts() {
    Reply dry = tools.call("preempt", Map.of("jobs", List.of(12), "for", 14, "grace", "5m"));
    assertTrue(runner.changing().isEmpty(), runner.calls.toString());
    assertTrue(dry.text().contains("command: gq preempt --json --grace=5m --for=14 12"), dry.text());
    assertTrue(dry.text().contains("job 14 'eval' WAITING"), dry.text());
    tools.call("preempt", Map.of("jobs", List.of(12), "for", 14, "grace", "5m", "confirm", true));
    assertEquals(List.of(List.of("preempt", "--json", "--grace=5m", "--for=14", "12")), runner.changing());
  }

  @Test
  void retryAndResumeActOnlyWhenConfirmed() {
    tools.call("retry", Map.of("jobs", List.of(12)));
    tools.call("resume", Map.of("jobs", List.of(12), "confirm", false));
    assertTrue(runner.changing().isEmpty(), runner.calls.toString());
    tools.call("retry", Map.of("jobs", List.of(12), "confirm", true));
    tools.call("resume", Map.of("jobs", 12, "confirm", true));
    assertEquals(List.of(List.of("retry", "12"), List.of("resume", "--json", "12")), runner.changing());
  }

  @Test
  void badInputIsOneErrorAndRunsNothing() {
    assertBad("show", Map.of(), "show needs 'job', a job id");
    assertBad("show", Map.of("job", "12"), "show: 'job' must be a job id (an integer)");
    assertBad("show", Map.of("job", 1.5), "must be a job id");
    assertBad("cancel", Map.of("jobs", List.of()), "cancel: 'jobs' is empty");
    assertBad("cancel", Map.of("jobs", List.of(0), "confirm", true), "not a job id");
    assertBad("cancel", Map.of("jobs", List.of(12), "confirm", "yes"), "'confirm' must be true or false");
    assertBad("submit", Map.of("argv", List.of()), "submit needs 'argv'");
    assertBad("submit", Map.of("argv", List.of("x"), "gpus", 100, "confirm", true), "'gpus' must be from 0 to 64");
    assertBad("submit", Map.of("argv", List.of("x"), "cwd", "relative", "confirm", true), "absolute path");
    assertBad("submit", Map.of("argv", List.of("x"), "name", "a\nb", "confirm", true), "one non-empty line");
    assertBad("logs", Map.of("job", 1, "lines", 1_000_000), "'lines' must be from 1 to " + ReadTools.MAX_LOG_LINES);
    assertBad("ps", Map.of("bogus", 1), "ps has no argument 'bogus'");
    assertBad("nosuch", Map.of(), "there is no tool 'nosuch'");
  }

  @Test
  void aFailedCommandIsAnErrorWithGqsMessage() {
    runner.next = new Outcome(1, "", "gq: job 42 does not exist; see gq ps -a\n");
    Reply r = tools.call("show", Map.of("job", 42));
    assertTrue(r.error());
    assertEquals("gq: job 42 does not exist; see gq ps -a (exit code 1)", r.text());
  }

  @Test
  void aRunnerThatThrowsIsAnErrorNotACrash() {
    GqTools broken = new GqTools((argv, cwd) -> { throw new IllegalStateException("boom"); }, "/", () -> NOW);
    Reply r = broken.call("ps", Map.of());
    assertTrue(r.error());
    assertTrue(r.text().contains("boom"), r.text());
  }

  @Test
  void everyWriteToolTakesConfirmAndSaysSoAndEveryJobIdIsAnInteger() {
    for (Tool t : tools.all()) {
      @SuppressWarnings("unchecked")
      Map<String, Map<String, Object>> props = (Map<String, Map<String, Object>>) t.inputSchema().get("properties");
      boolean writes = List.of("submit", "cancel", "retry", "preempt", "resume").contains(t.name());
      assertEquals(writes, props.containsKey("confirm"), t.name());
      if (writes) assertTrue(t.description().contains("confirm: true"), t.name());
      for (String id : List.of("job", "for")) {
        if (props.containsKey(id)) assertEquals("integer", props.get(id).get("type"), t.name() + "." + id);
      }
      if (props.containsKey("jobs")) assertEquals(Map.of("type", "integer", "minimum", 1), props.get("jobs").get("items"), t.name());
    }
    assertEquals(List.of("ps", "show", "logs", "gpu", "groups", "who", "eta", "report", "events", "submit", "cancel", "retry", "preempt", "resume"),
        tools.all().stream().map(Tool::name).toList());
  }

  @Test
  void idsAreIntegersNeverJsonNumbersWithAFractionOrExponent() {
    // the JSON parser reads 1.0 and 1e0 as doubles: written so, they are not integers
    for (Object n : List.of(1.0, 1.5, 1e0)) {
      assertBad("show", Map.of("job", n), "show: 'job' must be a job id (an integer)");
      assertBad("logs", Map.of("job", n), "logs: 'job' must be a job id (an integer)");
      assertBad("events", Map.of("job", n), "events: 'job' must be a job id (an integer)");
      assertBad("cancel", Map.of("jobs", List.of(n), "confirm", true), "cancel: 'jobs' must be a list of job ids (integers)");
      assertBad("cancel", Map.of("jobs", n, "confirm", true), "cancel: 'jobs' must be a list of job ids (integers)");
      assertBad("preempt", Map.of("jobs", List.of(12), "for", n, "confirm", true), "preempt: 'for' must be a job id (an integer)");
      assertBad("submit", Map.of("argv", List.of("x"), "after", List.of(n), "confirm", true), "submit: 'after' must be");
      assertBad("ps", Map.of("limit", n), "ps: 'limit' must be an integer");
    }
    assertBad("show", Map.of("job", 1.0), "not 1.0; write it without a decimal point or exponent");
  }

  private void assertBad(String tool, Map<String, Object> args, String expected) {
    int before = runner.calls.size();
    Reply r = tools.call(tool, args);
    assertTrue(r.error(), tool + " " + args + ": " + r.text());
    assertTrue(r.text().contains(expected), r.text());
    assertFalse(r.text().contains("\n"), "one line: " + r.text());
    assertEquals(before, runner.calls.size(), "nothing ran for " + tool + " " + args);
  }
}
