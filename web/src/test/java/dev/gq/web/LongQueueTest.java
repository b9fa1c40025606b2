package dev.gq.web;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiReplies.QueueState;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The page with a long queue: it lists the running jobs and the oldest {@link ViewReads#WAITING_SHOWN}
 * waiting ones and counts the others, reads whole and asks why only the listed ones wait, and its
 * size does not grow with the queue; {@code /metrics} still counts every job.
 */
class LongQueueTest {
  /** What the page asked the daemon: the ids of the jobs it read whole, and those whose reasons it asked for. */
  private final List<Long> readWhole = new ArrayList<>();
  private final List<Long> reasonsAsked = new ArrayList<>();

  /** A daemon with jobs 1 and 2 running and {@code waiting} more waiting, answering only what the page asks. */
  private GqApi daemon(int waiting) {
    Map<Long, Job> live = new TreeMap<>();
    live.put(1L, Views.job(1, "train", JobState.RUNNING, List.of("python", "train.py")));
    live.put(2L, Views.job(2, "eval", JobState.RUNNING, List.of("python", "eval.py")));
    for (long id = 3; id < 3 + waiting; id++) live.put(id, Views.job(id, "cell-" + id, JobState.WAITING, List.of("python", "cell.py")));
    GqApi.GpuReport gpus = Views.view().gpus();
    return (GqApi) Proxy.newProxyInstance(GqApi.class.getClassLoader(), new Class<?>[] {GqApi.class}, (p, m, args) ->
        switch (m.getName()) {
          case "gpus" -> gpus;
          case "processes", "progress", "gpuTraces" -> Map.of();
          case "who" -> null;
          case "now" -> Views.NOW;
          case "eventsTail" -> 7L;
          case "groups" -> List.of();
          case "queueState" -> new QueueState(false, Map.of(), Map.of(), Map.of());
          case "liveJobs" -> live.values();
          case "jobPage" -> page((JobQuery) args[0], live);
          case "waitReasons" -> {
            if (args == null) throw new AssertionError("the page asked why every job waits");
            Map<Long, WaitReason> out = new HashMap<>();
            for (Object id : (Collection<?>) args[0]) {
              reasonsAsked.add((Long) id);
              out.put((Long) id, new WaitReason.GpusBusy(1, 0, List.of()));
            }
            yield out;
          }
          case "journalProblem" -> null;
          case "partLines" -> List.of();
          default -> throw new AssertionError("the page asked " + m.getName());
        });
  }

  private JobPage page(JobQuery q, Map<Long, Job> live) {
    if (!q.states().isEmpty() && q.states().stream().allMatch(JobState::terminal)) return new JobPage(List.of(), List.of());
    if (q.ranges().isEmpty()) throw new AssertionError("the page listed every live job");
    List<Job> out = new ArrayList<>();
    for (long[] r : q.ranges())
      for (long id = r[0]; id <= r[1]; id++) {
        readWhole.add(id);
        if (live.containsKey(id)) out.add(live.get(id));
      }
    return new JobPage(out.reversed(), List.of());
  }

  private static int count(String html, String pattern) {
    Matcher m = Pattern.compile(pattern).matcher(html);
    int n = 0;
    while (m.find()) n++;
    return n;
  }

  @Test
  void thePageListsTheRunningJobsAndTheOldestWaitingOnesAndCountsTheRest() throws Exception {
    MachineView v = new ViewReads(daemon(1000), "alice").read();
    String html = Pages.machine(v, "t");
    assertEquals(2, count(html, "<tr class=\"job-running\">"), html);
    assertEquals(ViewReads.WAITING_SHOWN, count(html, "<tr class=\"job-waiting\">"));
    assertTrue(html.contains("and 800 more waiting: gq ps lists them all"), html);
    assertTrue(html.contains("/job/3?") && html.contains("/job/202?") && !html.contains("/job/203?"), "the oldest waiting ones");
    assertTrue(readWhole.size() <= 2 + ViewReads.WAITING_SHOWN, "read whole: " + readWhole.size());
    assertEquals(ViewReads.WAITING_SHOWN, reasonsAsked.size(), "reasons asked for the listed waiting jobs only");
  }

  @Test
  void thePageIsAsLongWithTwentyThousandWaitingAsWithAThousand() throws Exception {
    String thousand = Pages.machine(new ViewReads(daemon(1_000), "alice").read(), "t");
    String many = Pages.machine(new ViewReads(daemon(20_000), "alice").read(), "t");
    assertTrue(many.contains("and 19,800 more waiting"), many);
    assertTrue(Math.abs(many.length() - thousand.length()) < 16, thousand.length() + " and " + many.length() + " characters");
  }

  @Test
  void metricsCountEveryJobNotOnlyTheListedOnes() throws Exception {
    MachineView v = new ViewReads(daemon(1000), "alice").read();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    MetricsText.write(v, new MetricsText.Health(null, List.of()), out);
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("gq_jobs{state=\"WAITING\",user=\"alice\"} 1000.0"), text);
    assertTrue(text.contains("gq_jobs{state=\"RUNNING\",user=\"alice\"} 2.0"), text);
  }
}
