package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.api.GqApi;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import dev.gq.core.progress.Source;
import dev.gq.core.schedule.FairWho;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jline.utils.AttributedString;
import org.junit.jupiter.api.Test;

class TopScreenTest {
  private static final Instant NOW = Jobs.T0.plusSeconds(125);
  private static final long GIB = 1L << 30;

  private static GpuStatus gpu(int i, GpuState s, Long owner, List<GpuProcess> procs) {
    return new GpuStatus(i, "GPU-" + i, "NVIDIA H100 80GB HBM3", s, owner, procs, 80 * GIB, 10 * GIB, null);
  }

  private static TopData data(List<Job> jobs, List<GpuStatus> gpus, Map<String, GpuHistory.Trace> traces) {
    List<StoredEvent> events = new ArrayList<>();
    for (int i = 0; i < 12; i++)
      events.add(new StoredEvent(i + 1, Jobs.T0.plusSeconds(i), "JobLaunched", (long) i, Map.of()));
    List<GroupSummary> groups = List.of(
        new GroupSummary("sweep", Map.of(JobState.DONE, 3, JobState.RUNNING, 1, JobState.WAITING, 6), 0, null, false),
        new GroupSummary("ablation", Map.of(JobState.FAILED, 2, JobState.DONE, 2), 0, "fail-fast", true));
    return new TopData(NOW, ZoneOffset.UTC, new GpuReport(gpus, "fake", true, null), traces,
        Map.of(777L, new ProcessView(777, "bob", "python other.py --big", NOW.minus(Duration.ofMinutes(95)))), jobs,
        Map.of(3L, new WaitReason.GpusBusy(1, 0, List.of())),
        Map.of(1L, new Estimate(53, 100, 53.0, 1, Duration.ofMinutes(84), Source.TQDM)),
        Map.of(), Set.of(), false, groups, events, null, List.of());
  }

  private static TopData sample() {
    List<Job> jobs = new ArrayList<>();
    jobs.add(Jobs.job(1, JobState.RUNNING, Jobs.spec(1, "train", "sweep", null, "python", "train.py")));
    jobs.add(Jobs.job(2, JobState.FAILED));
    jobs.add(Jobs.job(3, JobState.WAITING));
    List<GpuStatus> gpus = List.of(
        gpu(0, GpuState.RUNNING, 1L, List.of(new GpuProcess(1001, 9 * GIB))),
        gpu(1, GpuState.EXTERNAL, null, List.of(new GpuProcess(777, 4 * GIB))),
        gpu(2, GpuState.FREE, null, List.of()));
    Map<String, GpuHistory.Trace> traces = Map.of(
        "GPU-0", new GpuHistory.Trace(new GpuFigures(87, 40, 64, 250, 300), List.of(0, 50, 100)),
        "GPU-1", new GpuHistory.Trace(GpuFigures.NONE, Arrays.asList(null, null)));
    return data(jobs, gpus, traces);
  }

  private static List<String> text(List<AttributedString> lines) {
    return lines.stream().map(AttributedString::toString).toList();
  }

  @Test
  void fillsAn80By24ScreenExactlyWithNoLineWiderThanIt() {
    List<AttributedString> lines = TopScreen.render(sample(), new TopView(), 80, 24);
    assertEquals(24, lines.size());
    for (AttributedString l : lines) assertTrue(l.columnLength() <= 80, l.toString());
    List<String> t = text(lines);
    assertTrue(t.get(0).contains("3 GPUs, 1 free") && t.get(0).contains("1 running, 1 waiting"), t.get(0));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("0   RUNNING   job 1") && l.contains("87%")
        && l.contains("10.0/80.0G") && l.contains("64C") && l.contains("250W") && l.contains("▁▄█")), String.join("\n", t));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("1   EXTERNAL  bob")), String.join("\n", t));
    assertTrue(t.stream().anyMatch(l -> l.contains("pid 777") && l.contains("bob") && l.contains("1h35m")
        && l.contains("python other.py")), String.join("\n", t));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("1 ") && l.contains("53% ETA 1h24m") && l.contains("sweep")));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("3 ") && l.contains("(GPUs busy)")));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("2 ") && l.contains("(exit 3)")));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("group sweep") && l.contains("[###.........] 3/10")));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("group ablation") && l.contains("HELD (fail-fast)")));
    // the newest events at the bottom, just above the keys
    assertTrue(t.get(22).contains("JobLaunched") && t.get(22).contains("job 11"), t.get(22));
    assertTrue(t.get(23).contains("q quit"), t.get(23));
  }

  @Test
  void aWideScreenShowsTheCardTypeThePowerLimitAndMoreEvents() {
    List<String> t = text(TopScreen.render(sample(), new TopView(), 200, 50));
    assertEquals(50, t.size());
    assertTrue(t.stream().anyMatch(l -> l.startsWith("0 ") && l.contains("H100 80GB HBM3") && l.contains("250/300W")));
    assertEquals(8, t.stream().filter(l -> l.contains("JobLaunched")).count());
  }

  @Test
  void figuresAGpuDoesNotGiveAreBlank() {
    List<String> t = text(TopScreen.render(sample(), new TopView(), 80, 24));
    String row = t.stream().filter(l -> l.startsWith("1   EXTERNAL")).findFirst().orElseThrow();
    assertFalse(row.contains("%") || row.contains("C ") || row.contains("W"), row);
    String free = t.stream().filter(l -> l.startsWith("2   FREE")).findFirst().orElseThrow();
    assertTrue(free.contains("10.0/80.0G"), free);
  }

  @Test
  void aTinyScreenGivesUpProcessesEventsAndGroupsBeforeJobs() {
    List<String> t = text(TopScreen.render(sample(), new TopView(), 80, 12));
    assertEquals(12, t.size());
    assertTrue(t.stream().noneMatch(l -> l.contains("pid ")), String.join("\n", t));
    assertTrue(t.stream().filter(l -> l.matches("^[123] {5}[A-Z].*")).count() == 3, String.join("\n", t));
  }

  @Test
  void theListKeepsTheSelectedJobInViewAndSaysHowManyMore() {
    List<Job> jobs = new ArrayList<>();
    for (long i = 1; i <= 40; i++) jobs.add(Jobs.job(i, JobState.WAITING));
    TopData d = data(jobs, List.of(), Map.of());
    TopView v = new TopView();
    List<Job> shown = TopScreen.shown(d, v);
    v.press(new TopKeys.Key(TopKeys.Kind.END, 0), shown);
    List<String> t = text(TopScreen.render(d, v, 80, 24));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("40 ")), String.join("\n", t));
    v.press(new TopKeys.Key(TopKeys.Kind.HOME, 0), shown);
    t = text(TopScreen.render(d, v, 80, 24));
    assertTrue(t.stream().anyMatch(l -> l.contains("more (Page Down)")), String.join("\n", t));
  }

  @Test
  void liveJobsComeFirstRunningBeforeWaitingThenTheNewestEnded() {
    TopData d = sample();
    assertEquals(List.of(1L, 3L, 2L), TopScreen.shown(d, new TopView()).stream().map(Job::id).toList());
  }

  @Test
  void oneScreenAsTextHasEveryJobAndNoKeysLine() {
    List<String> t = text(TopScreen.render(sample(), new TopView(), 80, 0));
    assertTrue(t.stream().noneMatch(l -> l.contains("q quit")));
    assertEquals(12, t.stream().filter(l -> l.contains("JobLaunched")).count());
  }

  @Test
  void sparklineScalesZeroToAHundredAndLeavesUnknownBlank() {
    assertEquals("▁▄█ ", TopGpuRows.sparkline(Arrays.asList(0, 50, 100, null), 10));
    assertEquals("█", TopGpuRows.sparkline(List.of(0, 100), 1));
  }

  @Test
  void wideCharactersAreCutByTheirWidth() {
    AttributedString s = ScreenText.fit(new AttributedString("日本語のジョブ"), 5);
    assertTrue(s.columnLength() <= 5, s.toString());
    assertEquals("日本…", ScreenText.cut("日本語のジョブ", 5));
  }

  @Test
  void aLogKeepsTheLastStateOfALineRedrawnInPlaceAndDropsColours() {
    assertEquals(List.of("epoch 1", "100%", "red", "a       b"),
        TopReads.logLines("epoch 1\n10%\r50%\r100%\n\u001b[31mred\u001b[0m\na\tb\n"));
  }

  private static TopData with(TopData d, GpuReport gpus, Map<Long, ProcessView> procs, Map<Long, Instant> idle) {
    return new TopData(d.now(), d.zone(), gpus, d.traces(), procs, d.jobs(), d.waits(), d.progress(), idle,
        d.heldGroups(), d.queueHeld(), d.groups(), d.events(), d.logJob(), d.log());
  }

  private static TopData withWho(TopData d, GqApi.WhoReport who) {
    return new TopData(d.now(), d.zone(), d.gpus(), d.traces(), d.processes(), d.jobs(), d.waits(), d.progress(),
        d.idle(), d.heldGroups(), d.queueHeld(), d.groups(), d.events(), d.logJob(), d.log(), who);
  }

  private static GqApi.WhoReport twoUsers() {
    return new GqApi.WhoReport("at most 2 GPUs per user while others wait; fair turn 30s", true, List.of(
        new FairWho.Row("alice", 1001, 2, 2, 8, 8, Jobs.T0),
        new FairWho.Row("bob", 1002, 0, 0, 2, 2, Jobs.T0.plusSeconds(60))), Map.of(),
        List.of(new GqApi.BookingLine("b1", "carol", List.of(2), List.of("GPU-2"), Jobs.T0.plusSeconds(3600),
            Jobs.T0.plusSeconds(3 * 3600))));
  }

  @Test
  void aSharedMachineShowsEachUsersPartAndThePolicyUnderTheGpus() {
    List<String> t = text(TopScreen.render(withWho(sample(), twoUsers()), new TopView(), 140, 30));
    assertEquals(30, t.size());
    int alice = t.indexOf(t.stream().filter(l -> l.startsWith("user alice")).findFirst().orElseThrow());
    assertEquals("user alice         2 held   2 running   8 waiting (8 GPUs)", t.get(alice).strip());
    assertEquals("user bob           0 held   0 running   2 waiting (2 GPUs)", t.get(alice + 1).strip());
    assertEquals("policy: at most 2 GPUs per user while others wait; fair turn 30s  booked: GPU 2 by carol 03-01 11:00-03-01 13:00",
        t.get(alice + 2).strip());
    // under the GPUs, above the jobs
    assertTrue(t.get(alice - 1).startsWith("2   FREE"), t.get(alice - 1));
    assertTrue(t.get(alice + 3).startsWith("ID "), t.get(alice + 3));
  }

  @Test
  void aLoneUserWithoutPolicyOrBookingSeesNoUsersLines() {
    GqApi.WhoReport alone = new GqApi.WhoReport("none (first come, first served)", false, List.of(
        new FairWho.Row("alice", 1001, 1, 1, 1, 1, Jobs.T0)), Map.of());
    assertEquals(text(TopScreen.render(sample(), new TopView(), 80, 24)),
        text(TopScreen.render(withWho(sample(), alone), new TopView(), 80, 24)));
    // a policy in force shows it even to a lone user
    GqApi.WhoReport policy = new GqApi.WhoReport("at most 2 GPUs per user while others wait", true, alone.users(), Map.of());
    assertTrue(text(TopScreen.render(withWho(sample(), policy), new TopView(), 80, 24)).stream()
        .anyMatch(l -> l.startsWith("policy: at most 2 GPUs")));
  }

  @Test
  void aSmallScreenGivesUpTheUsersLinesBeforeJobsAndAfterGroupsAndEvents() {
    List<String> t = text(TopScreen.render(withWho(sample(), twoUsers()), new TopView(), 80, 10));
    assertEquals(10, t.size());
    assertTrue(t.stream().noneMatch(l -> l.startsWith("user ") || l.startsWith("policy: ")), String.join("\n", t));
    assertEquals(3, t.stream().filter(l -> l.matches("^[123] {5}[A-Z].*")).count(), String.join("\n", t));
    // two lines more: the users' lines fill them, the jobs keep theirs
    t = text(TopScreen.render(withWho(sample(), twoUsers()), new TopView(), 80, 12));
    assertEquals(2, t.stream().filter(l -> l.startsWith("user ")).count(), String.join("\n", t));
    assertEquals(3, t.stream().filter(l -> l.matches("^[123] {5}[A-Z].*")).count(), String.join("\n", t));
    // one more: every users' line before any group or event
    t = text(TopScreen.render(withWho(sample(), twoUsers()), new TopView(), 80, 13));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("policy: ")), String.join("\n", t));
    assertTrue(t.stream().noneMatch(l -> l.startsWith("group ") || l.contains("JobLaunched")), String.join("\n", t));
  }

  private static ProcessView proc(long pid, long sid, String tag) {
    return new ProcessView(pid, "ann", "python eval.py", NOW.minusSeconds(60),
        new ProcessFacts(pid, sid, sid, tag));
  }

  @Test
  void aSharedGpuShowsEachJobsShareAndPutsEachProcessUnderTheJobThatOwnsIt() {
    List<Job> jobs = List.of(Jobs.job(4, JobState.RUNNING, Jobs.spec(1, "eval-a", null, null, "python", "eval.py")),
        Jobs.job(5, JobState.RUNNING, Jobs.spec(1, "eval-b", null, null, "python", "eval.py")));
    var shares = List.of(new GpuStatus.Share(4, 19074, 0, 12_000), new GpuStatus.Share(5, 19074, 0, 25_000));
    // job 4's process by its session, job 5's by its tag, and one of job 5's with the first job's pid in no way
    List<GpuProcess> procs = List.of(new GpuProcess(2001, 12_000L << 20), new GpuProcess(2002, 20_000L << 20),
        new GpuProcess(2003, 5_000L << 20));
    GpuStatus shared = new GpuStatus(0, "GPU-0", "NVIDIA H100 80GB HBM3", GpuState.SHARED, 4L, procs, 81559L << 20,
        37_000L << 20, null, null, shares);
    TopData d = with(data(jobs, List.of(shared), Map.of()), new GpuReport(List.of(shared), "fake", true, null,
        Map.of(), Map.of(), 1024), Map.of(2001L, proc(2001, 1004, null), 2002L, proc(2002, 1, "tag5"),
        2003L, proc(2003, 1005, null)), Map.of());
    for (int height : new int[] {24, 0}) {
      List<String> t = text(TopScreen.render(d, new TopView(), 80, height));
      String all = String.join("\n", t);
      assertTrue(t.stream().anyMatch(l -> l.startsWith("0   SHARED    jobs 4,5")), all);
      assertTrue(t.stream().anyMatch(l -> l.contains("jobs 4 (18.6G), 5 (18.6G, uses 24.4G: over); 41.4G left")), all);
      assertTrue(t.stream().anyMatch(l -> l.contains("pid 2001") && l.contains("job 4 ") && l.contains("eval-a")), all);
      assertTrue(t.stream().anyMatch(l -> l.contains("pid 2002") && l.contains("job 5 ") && l.contains("eval-b")), all);
      assertTrue(t.stream().anyMatch(l -> l.contains("pid 2003") && l.contains("job 5 ")), all);
    }
    // the share line stays on a screen too small for processes
    List<String> small = text(TopScreen.render(d, new TopView(), 80, 8));
    assertTrue(small.stream().anyMatch(l -> l.contains("jobs 4 (18.6G)")), String.join("\n", small));
  }

  @Test
  void aProcessOnASharedGpuThatNoneOfItsJobsOwnsIsPutUnderItsUser() {
    List<Job> jobs = List.of(Jobs.job(4, JobState.RUNNING));
    GpuStatus shared = new GpuStatus(0, "GPU-0", "NVIDIA H100 80GB HBM3", GpuState.SHARED, 4L,
        List.of(new GpuProcess(2001, 1L << 30)), 80 * GIB, GIB, null, null, List.of(new GpuStatus.Share(4, 19074, 0, 0)));
    TopData d = with(data(jobs, List.of(shared), Map.of()), new GpuReport(List.of(shared), "fake", true, null),
        Map.of(2001L, proc(2001, 77, null)), Map.of());
    assertNull(TopGpuRows.jobOf(d, shared, d.processes().get(2001L)));
    assertNull(TopGpuRows.jobOf(d, shared, null));
    List<String> t = text(TopScreen.render(d, new TopView(), 80, 0));
    assertTrue(t.stream().anyMatch(l -> l.contains("pid 2001") && l.contains("ann") && l.contains("python eval.py")),
        String.join("\n", t));
  }

  @Test
  void anUnwellGpuShowsDrainedWithItsProblemAndItsJobIsMarked() {
    List<Job> jobs = List.of(Jobs.job(1, JobState.RUNNING, Jobs.spec(2, "train", null, null, "python", "train.py")));
    GpuStatus drained = new GpuStatus(0, "GPU-uuid-0", "NVIDIA H100 80GB HBM3", GpuState.DRAINED, null, List.of(),
        80 * GIB, 0, "drained (unwell: Xid 79: fell off the bus): no new jobs; 'gq gpu resume 0' gives it back", null);
    GpuStatus running = new GpuStatus(1, "GPU-uuid-1", "NVIDIA H100 80GB HBM3", GpuState.RUNNING, 1L, List.of(),
        80 * GIB, GIB, "drained (unwell: ECC: 2 uncorrectable errors): no new job after this; 'gq gpu resume 1' gives it back", null);
    GpuReport report = new GpuReport(List.of(drained, running), "fake", true, null, Map.of(),
        Map.of("GPU-uuid-0", "Xid 79: fell off the bus", "GPU-uuid-1", "ECC: 2 uncorrectable errors"));
    TopData d = with(data(jobs, List.of(), Map.of()), report, Map.of(), Map.of());
    List<String> t = text(TopScreen.render(d, new TopView(), 80, 24));
    String all = String.join("\n", t);
    assertTrue(t.stream().anyMatch(l -> l.startsWith("0   DRAINED   unwell")), all);
    assertTrue(t.stream().anyMatch(l -> l.contains("unwell: Xid 79: fell off the bus; 'gq gpu resume 0' gives it back")), all);
    assertTrue(t.stream().anyMatch(l -> l.contains("unwell: ECC: 2 uncorrectable errors; no new job after this one")), all);
    List<String> wide = text(TopScreen.render(d, new TopView(), 120, 24));
    assertTrue(wide.stream().anyMatch(l -> l.startsWith("1 ") && l.contains("train  (GPU 0 unwell, GPU 1 unwell)")),
        String.join("\n", wide));
  }

  @Test
  void aJobWhoseGpusDoNothingIsMarkedIdle() {
    TopData d = sample();
    d = with(d, d.gpus(), d.processes(), Map.of(1L, NOW.minus(Duration.ofMinutes(45))));
    List<String> t = text(TopScreen.render(d, new TopView(), 80, 24));
    assertTrue(t.stream().anyMatch(l -> l.startsWith("1 ") && l.contains("train  (idle 45m)")), String.join("\n", t));
    // a waiting job keeps its reason, an ended one its exit code
    assertTrue(t.stream().anyMatch(l -> l.startsWith("3 ") && l.contains("(GPUs busy)")));
  }

  @Test
  void figuresComeFromTheReportWhenTheDaemonKeptNoHistory() {
    GpuStatus g = gpu(0, GpuState.FREE, null, List.of());
    TopData d = data(List.of(), List.of(g), Map.of());
    d = with(d, new GpuReport(List.of(g), "fake", true, null, Map.of("GPU-0", new GpuFigures(37, 12, 61, 210, 700)),
        Map.of()), Map.of(), Map.of());
    String row = text(TopScreen.render(d, new TopView(), 80, 24)).stream().filter(l -> l.startsWith("0   FREE"))
        .findFirst().orElseThrow();
    assertTrue(row.contains("37%") && row.contains("61C") && row.contains("210W"), row);
  }

  @Test
  void anotherGqInstancesShareIsNamedAndItsProcessIsNotPutUnderOurJob() {
    List<Job> jobs = List.of(Jobs.job(4, JobState.RUNNING, Jobs.spec(1, "eval-a", null, null, "python", "eval.py")));
    List<GpuProcess> procs = List.of(new GpuProcess(2001, 1000L << 20), new GpuProcess(3001, 1000L << 20));
    GpuStatus both = new GpuStatus(0, "GPU-0", "NVIDIA H100 80GB HBM3", GpuState.SHARED, 4L, procs, 81559L << 20,
        2000L << 20, null, null, List.of(new GpuStatus.Share(4, 19074, 0, 1000)), List.of(new GpuStatus.Other("bob's job 3", 19074)));
    GpuStatus theirs = new GpuStatus(1, "GPU-1", "NVIDIA H100 80GB HBM3", GpuState.SHARED, null, List.of(), 81559L << 20,
        0, null, null, List.of(), List.of(new GpuStatus.Other("bob's job 7", 19074)));
    TopData d = with(data(jobs, List.of(both, theirs), Map.of()), new GpuReport(List.of(both, theirs), "fake", true,
        null, Map.of(), Map.of(), 1024), Map.of(2001L, proc(2001, 1004, null), 3001L,
        new ProcessView(3001, "bob", "python bob.py", NOW.minusSeconds(90), new ProcessFacts(3001, 3001, 3001, null))),
        Map.of());
    List<String> t = text(TopScreen.render(d, new TopView(), 100, 0));
    String all = String.join("\n", t);
    assertTrue(t.stream().anyMatch(l -> l.startsWith("0   SHARED    job 4 +1 ")), all);
    assertTrue(t.stream().anyMatch(l -> l.contains("job 4 (18.6G), bob's job 3 (18.6G); 41.4G left")), all);
    assertTrue(t.stream().anyMatch(l -> l.startsWith("1   SHARED    other gq ")), all);
    assertTrue(t.stream().anyMatch(l -> l.contains("bob's job 7 (18.6G); 60.0G left")), all);
    assertTrue(t.stream().anyMatch(l -> l.contains("pid 2001") && l.contains("job 4 ")), all);
    assertTrue(t.stream().anyMatch(l -> l.contains("pid 3001") && l.contains("bob") && l.contains("python bob.py")), all);
  }
}
