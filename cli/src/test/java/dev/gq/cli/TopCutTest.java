package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

/** What {@code gq top} cuts when a line is too long: words, never a number; and what has room is not cut. */
class TopCutTest {
  private static final long GIB = 1L << 30;

  private static TopData data(List<Job> jobs, List<GpuStatus> gpus) {
    return new TopData(Jobs.T0.plusSeconds(600), ZoneOffset.UTC, new GpuReport(gpus, "fake", true, null), Map.of(),
        Map.of(), jobs, Map.of(), Map.of(), Map.of(), Set.of(), false, List.of(), List.of(), null, List.of());
  }

  private static List<String> render(TopData d, TopView v, int width) {
    return TopScreen.render(d, v, width, 24).stream().map(AttributedString::toString).toList();
  }

  private static String row(List<String> screen, String start) {
    return screen.stream().filter(l -> l.startsWith(start)).findFirst().orElseThrow(() -> new AssertionError(String.join("\n", screen)));
  }

  @Test
  void aLongNameIsCutSoThatTheExitCodeShowsWhole() {
    Job j = Jobs.job(7, JobState.FAILED, Jobs.spec(1, "finetune-llama-13b-lr3e-4-warmup", "sweep", null, "python", "t.py"));
    j = new Job(j.id(), j.spec(), j.state(), j.submitTime(), j.startTime(), j.endTime(), j.gpus(), j.identity(), 143,
        j.logPath(), j.failureReason(), j.tag(), null);
    String line = row(render(data(List.of(j), List.of()), new TopView(), 80), "7 ");
    assertTrue(line.stripTrailing().endsWith("(exit 143)"), line);
    assertTrue(line.contains("finetune-") && line.contains("…"), line);
  }

  @Test
  void theHolderHasRoomOnAWideScreenAndIsNeverCutInsideANumber() {
    GpuStatus g = new GpuStatus(0, "GPU-0", "NVIDIA H100 80GB HBM3", GpuState.SHARED, 1041L, List.of(), 80 * GIB, GIB,
        null, null, List.of(new GpuStatus.Share(1041, 10_000, 0, 0), new GpuStatus.Share(1042, 10_000, 0, 0),
            new GpuStatus.Share(1043, 10_000, 0, 0), new GpuStatus.Share(1044, 10_000, 0, 0)));
    TopData d = data(List.of(), List.of(g));
    assertTrue(row(render(d, new TopView(), 200), "0 ").contains("jobs 1041,1042,1043,1044 "), String.join("\n", render(d, new TopView(), 200)));
    String narrow = row(render(d, new TopView(), 80), "0 ");
    assertTrue(narrow.matches("0 +SHARED +jobs 1041,(1042,)?… .*"), narrow);
  }

  @Test
  void theTitleKeepsTheWholeFilterAtEightyColumns() {
    TopView v = new TopView();
    TopData d = data(List.of(Jobs.job(1, JobState.RUNNING)), List.of());
    for (TopKeys.Key k : TopKeys.parse("frunning\r")) v.press(k, TopScreen.shown(d, v));
    String title = render(d, v, 80).get(0);
    assertTrue(title.contains("filter: running (1)"), title);
  }

  @Test
  void aCutNeverEndsInsideANumber() {
    assertEquals("needs 4 GPUs, …", ScreenText.cutWords("needs 4 GPUs, 2048 MiB free", 17));
    assertEquals("needs 4 GPUs, 2048 MiB free", ScreenText.cutWords("needs 4 GPUs, 2048 MiB free", 27));
    assertEquals("ab…", ScreenText.cutWords("abcdef", 3));
  }
}
