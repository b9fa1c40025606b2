package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

/**
 * The job list of {@code gq top} on a busy machine: which job stays selected as jobs end, which rows
 * the window shows, and what a small screen gives up before the jobs.
 */
class TopListTest {
  private static final Instant NOW = Jobs.T0.plusSeconds(3600);
  private static final long GIB = 1L << 30;

  /** Jobs 1-4 running, 5-10 waiting (each with a reason), 11-40 ended; {@code ended} have ended just now. */
  private static TopData busy(Set<Long> ended) {
    List<Job> jobs = new ArrayList<>();
    Map<Long, WaitReason> waits = new HashMap<>();
    for (long i = 1; i <= 40; i++) {
      Job j = Jobs.job(i, i <= 4 ? JobState.RUNNING : i <= 10 ? JobState.WAITING : JobState.DONE);
      if (ended.contains(i)) j = endedNow(j);
      if (j.state() == JobState.WAITING) waits.put(i, new WaitReason.GpusBusy(1, 0, List.of()));
      jobs.add(j);
    }
    List<GpuStatus> gpus = new ArrayList<>();
    for (int g = 0; g < 3; g++)
      gpus.add(new GpuStatus(g, "GPU-" + g, "NVIDIA H100 80GB HBM3", GpuState.RUNNING, (long) g + 1,
          List.of(new GpuProcess(2000 + g, 9 * GIB)), 80 * GIB, 10 * GIB, null));
    List<StoredEvent> events = new ArrayList<>();
    for (int i = 0; i < 12; i++) events.add(new StoredEvent(i + 1, Jobs.T0.plusSeconds(i), "JobLaunched", (long) i, Map.of()));
    List<GroupSummary> groups = List.of(
        new GroupSummary("a", Map.of(JobState.DONE, 3, JobState.WAITING, 6), 0, null, false),
        new GroupSummary("b", Map.of(JobState.DONE, 2, JobState.RUNNING, 1), 0, null, false),
        new GroupSummary("c", Map.of(JobState.DONE, 2, JobState.RUNNING, 1), 0, null, false));
    Map<Long, ProcessView> procs = Map.of(2000L, new ProcessView(2000, "ann", "python a.py", NOW),
        2001L, new ProcessView(2001, "ann", "python b.py", NOW), 2002L, new ProcessView(2002, "ann", "python c.py", NOW));
    return new TopData(NOW, ZoneOffset.UTC, new GpuReport(gpus, "fake", true, null), Map.of(), procs,
        jobs, waits, Map.of(), Map.of(), Set.of(), false, groups, events, null, List.of());
  }

  private static Job endedNow(Job j) {
    return new Job(j.id(), j.spec(), JobState.DONE, j.submitTime(), j.startTime(), NOW, j.gpus(), j.identity(), 0,
        j.logPath(), null, j.tag(), null);
  }

  private static List<String> render(TopData d, TopView v, int width, int height) {
    return TopScreen.render(d, v, width, height).stream().map(AttributedString::toString).toList();
  }

  private static boolean listed(List<String> screen, long id) {
    return screen.stream().anyMatch(l -> l.startsWith(id + " ") && !l.startsWith(id + " more"));
  }

  @Test
  void whenTheSelectedJobEndsTheSelectionMovesToTheNextLiveJobAndNoLiveJobIsHidden() {
    TopView v = new TopView();
    render(busy(Set.of()), v, 80, 24);
    assertEquals(1L, v.selected());
    List<String> t = render(busy(Set.of(1L)), v, 80, 24);
    assertEquals(2L, v.selected(), String.join("\n", t));
    for (long id = 2; id <= 10; id++) assertTrue(listed(t, id), "live job " + id + " is shown:\n" + String.join("\n", t));
    assertTrue(t.stream().noneMatch(l -> l.strip().startsWith("↑ ")), String.join("\n", t));
    assertTrue(t.stream().anyMatch(l -> l.strip().startsWith("↓ ") && l.contains(" more")), String.join("\n", t));
  }

  @Test
  void afterOneMoveTheSelectionStillFollowsLiveJobs() {
    TopView v = new TopView();
    TopData d = busy(Set.of());
    render(d, v, 80, 24);
    v.press(TopKeys.Key.ch('j'), TopScreen.shown(d, v));
    assertEquals(2L, v.selected());
    List<String> t = render(busy(Set.of(2L)), v, 80, 24);
    assertEquals(3L, v.selected());
    for (long id : new long[] {1, 3, 4, 5, 10}) assertTrue(listed(t, id), id + ":\n" + String.join("\n", t));
  }

  @Test
  void anEndedJobChosenByTheUserStaysSelectedAndRowsAboveAreCounted() {
    TopView v = new TopView();
    TopData d = busy(Set.of());
    render(d, v, 80, 24);
    v.press(TopKeys.Key.of(TopKeys.Kind.END), TopScreen.shown(d, v));
    List<String> t = render(d, v, 80, 24);
    assertEquals(11L, v.selected());
    assertTrue(listed(t, 11), String.join("\n", t));
    assertTrue(t.stream().anyMatch(l -> l.strip().matches("↑ \\d+ more.*")), String.join("\n", t));
    assertTrue(t.stream().noneMatch(l -> l.strip().startsWith("↓")), String.join("\n", t));
  }

  @Test
  void an80By24ScreenGivesUpProcessesEventsAndGroupsBeforeTheLiveJobsAndWhyTheyWait() {
    List<String> t = render(busy(Set.of()), new TopView(), 80, 24);
    assertEquals(24, t.size());
    for (long id = 1; id <= 10; id++) assertTrue(listed(t, id), "live job " + id + ":\n" + String.join("\n", t));
    assertTrue(t.stream().filter(l -> l.contains("(GPUs busy)")).count() == 6, String.join("\n", t));
    assertTrue(t.stream().noneMatch(l -> l.contains("pid ")), String.join("\n", t));
    // a tall screen has room for all of it
    List<String> tall = render(busy(Set.of()), new TopView(), 80, 50);
    assertTrue(tall.stream().anyMatch(l -> l.contains("pid 2000")), String.join("\n", tall));
    assertTrue(tall.stream().anyMatch(l -> l.startsWith("group a")), String.join("\n", tall));
    assertTrue(tall.stream().anyMatch(l -> l.contains("JobLaunched")), String.join("\n", tall));
  }
}
