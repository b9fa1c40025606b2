package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.BookingLine;
import dev.gq.api.ApiReplies.DaemonInfo;
import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.ApiReplies.QueueState;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.api.ApiReplies.WhoReport;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.WaitReason;
import dev.gq.core.report.JobSpan;
import dev.gq.core.schedule.FairWho;
import dev.gq.protocol.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Text another user, a process or a shared file wrote (a forged lease or share line, a command line
 * read from /proc, a job's name) reaches no terminal raw: every surface that prints it shows the
 * terminal's control characters, DEL, C1 controls, line separators and bidi overrides escaped, as
 * {@link PrintableText} writes them, and --json writes them as JSON u-escapes.
 */
class ForgedTextTest {
  /** A title-setting OSC, BEL, a colour, a C1 CSI, DEL, CR, a line separator and a right-to-left override. */
  static final String F = "x\u001b]0;PWN\u0007\u001b[31m\u009b2J\u007f\r\u2028\u202eY";
  private static final long GIB = 1L << 30;
  private static final Instant NOW = Jobs.T0.plus(Duration.ofHours(2));

  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void forgedMachine() {
    cli = new Cli(dir);
    cli.io.stdoutTty = false;
    cli.io.stderrTty = true;
    cli.io.env.put("TZ", "UTC");
    FakeApi api = cli.api;
    api.now = NOW;
    List<GpuStatus> gpus = List.of(
        new GpuStatus(0, "GPU-0", F, GpuState.SHARED, 1L, List.of(new GpuProcess(1001, GIB)), 80 * GIB, 10 * GIB, null, null,
            List.of(new GpuStatus.Share(1, 20480, 0, -1)), List.of(new GpuStatus.Other(F, 20480))),
        new GpuStatus(1, "GPU-1", "H100", GpuState.UNKNOWN, null, List.of(), 80 * GIB, 0, F, F, List.of(), List.of()),
        new GpuStatus(2, "GPU-2", "H100", GpuState.EXTERNAL, null, List.of(new GpuProcess(777, GIB)), 80 * GIB, GIB, F, null,
            List.of(), List.of(new GpuStatus.Other(F, 80 * 1024))),
        new GpuStatus(3, "GPU-3", "H100", GpuState.DRAINED, null, List.of(), 80 * GIB, 0, "drained (" + F + ")", null, List.of()));
    api.gpus = new GpuReport(gpus, F, true, F, null, Map.of("GPU-3", F));
    api.processes.put(777L, new ProcessView(777, F, F + " --steal", NOW.minusSeconds(600)));
    api.processes.put(1001L, new ProcessView(1001, F, F, NOW.minusSeconds(60)));
    JobSpec spec = new JobSpec(List.of(F, F), F, Map.of(), 1, F, F, F);
    api.add(Jobs.job(1, JobState.RUNNING, spec));
    Job failed = Jobs.job(2, JobState.FAILED, spec);
    api.add(new Job(2, spec, JobState.FAILED, failed.submitTime(), failed.startTime(), failed.endTime(), failed.gpus(),
        failed.identity(), 3, F, F, F, null, null, null));
    api.add(Jobs.job(3, JobState.WAITING, spec));
    api.waits.put(3L, new WaitReason.SlurmQueued(F));
    api.events.add(new StoredEvent(1, Jobs.T0, "JobFailed", 2L, Map.of("reason", F, "group", F)));
    api.events.add(new StoredEvent(2, Jobs.T0, F, null, Map.of(F, F)));
    api.groupList = List.of(new GroupSummary(F, Map.of(JobState.FAILED, 1, JobState.RUNNING, 1), 0, F, false));
    api.queue = new QueueState(false, Map.of(F, F));
    BookingLine booking = new BookingLine("0123abcd", F, List.of(0), List.of("GPU-0"), NOW, NOW.plusSeconds(3600));
    api.booked.add(booking);
    api.who = new WhoReport(F, true, List.of(new FairWho.Row(F, 1001, 1, 1, 1, 1, NOW)), Map.of(F, F), List.of(booking));
    api.info = new DaemonInfo(4242, F, 1, F, F, true, F, 4, 1, 1, F);
    api.parts = List.of(F);
    api.journal = F;
    api.usage = new FakeApi.UsageData(List.of(new JobSpan(1, F, JobState.DONE, Jobs.T0, Jobs.T0.plusSeconds(1), NOW, List.of(
        new JobSpan.GpuRef("GPU-0", 0)))), List.of(), List.of(new JobSpan.GpuRef("GPU-0", 0)));
  }

  /** Every surface's output, text and JSON, stdout and stderr, shows nothing raw. */
  @Test
  void noSurfacePrintsForgedTextRaw() {
    List<List<String>> surfaces = List.of(List.of("top"), List.of("gpu"), List.of("gpu", "--json"), List.of("who"),
        List.of("who", "--json"), List.of("ps", "--all"), List.of("ps", "--all", "--json"), List.of("show", "2"),
        List.of("show", "2", "--json"), List.of("events"), List.of("events", "--json"), List.of("logs"),
        List.of("report", "--since", "1d"), List.of("report", "--since", "1d", "--json"), List.of("book", "--list"),
        List.of("daemon", "status"), List.of("groups"), List.of("eta"));
    StringBuilder raw = new StringBuilder();
    for (List<String> argv : surfaces) {
      Cli.Result r = cli.run(argv.toArray(String[]::new));
      String hidden = hidden(r.out() + r.err());
      if (!hidden.isEmpty()) raw.append("\n'gq ").append(String.join(" ", argv)).append("' printed ").append(hidden).append(":\n")
          .append(PrintableText.escape(r.out() + r.err()).replace("\\n", "\n"));
    }
    if (!raw.isEmpty()) fail("forged text reached the terminal raw:" + raw);
  }

  /** --json keeps the values: the escapes read back as the characters the daemon holds. */
  @Test
  void jsonEscapesReadBackAsTheSameValues() throws Exception {
    Cli.Result r = cli.run("show", "2", "--json");
    assertTrue(r.out().contains("\\u009b2J\\u007f"), r.out());
    assertEquals(F, ((Map<?, ?>) Json.parse(r.out())).get("name"));
  }

  /** The live screen shows the same rows escaped: its text is gq's own drawing and escaped cells. */
  @Test
  void theLiveScreenDrawsForgedTextEscaped() throws ApiException {
    TopReads reads = new TopReads(new Invocation(cli.io, cli.api, null));
    TopView view = new TopView();
    List<String> lines = TopScreen.render(reads.gather(view, 160, 60), view, 160, 60).stream()
        .map(Object::toString).toList();
    for (String l : lines) assertEquals("", hidden(l), l);
    assertTrue(lines.stream().anyMatch(l -> l.contains("x\\x1b]0;PWN\\x07")), String.join("\n", lines));
  }

  /** gq mcp's replies, as JSON lines and as the text an assistant reads from them, show nothing raw either. */
  @Test
  void mcpToolsReplyWithForgedTextEscaped() throws Exception {
    StringBuilder in = new StringBuilder(McpCommandTest.INIT).append('\n');
    List<String> calls = List.of("{\"name\":\"show\",\"arguments\":{\"job\":2}}", "{\"name\":\"gpu\"}",
        "{\"name\":\"who\"}", "{\"name\":\"ps\",\"arguments\":{\"all\":true}}", "{\"name\":\"events\"}",
        "{\"name\":\"cancel\",\"arguments\":{\"jobs\":[1,2,3]}}", "{\"name\":\"groups\"}");
    for (int i = 0; i < calls.size(); i++)
      in.append("{\"jsonrpc\":\"2.0\",\"id\":").append(i + 2).append(",\"method\":\"tools/call\",\"params\":")
          .append(calls.get(i)).append("}\n");
    cli.io.streamed = in.toString().getBytes(StandardCharsets.UTF_8);
    Cli.Result r = cli.run("mcp");
    assertEquals("", hidden(r.out() + r.err()), r.out());
    List<String> lines = r.out().lines().toList();
    assertEquals(calls.size() + 1, lines.size(), r.out());
    for (String line : lines.subList(1, lines.size())) {
      Map<?, ?> result = (Map<?, ?>) ((Map<?, ?>) Json.parse(line)).get("result");
      String text = (String) ((Map<?, ?>) ((List<?>) result.get("content")).get(0)).get("text");
      assertEquals("", hidden(text), text);
    }
    assertTrue(lines.get(6).contains("x\\\\x1b]0;PWN"), "the dry run names the job escaped: " + lines.get(6));
  }

  /** The hidden characters of {@code s}, each as its code point, but newlines; empty when none. */
  private static String hidden(String s) {
    StringBuilder sb = new StringBuilder();
    s.chars().filter(c -> c != '\n' && PrintableText.hidden((char) c)).distinct()
        .forEach(c -> sb.append(String.format("U+%04X ", c)));
    return sb.toString().strip();
  }
}
