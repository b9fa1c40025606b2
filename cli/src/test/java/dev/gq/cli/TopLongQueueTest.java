package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.ApiException;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jline.utils.AttributedString;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq top} on a long queue: a screen reads whole, and asks why they wait, only the jobs whose
 * rows it draws and those that run; it counts the others, and every one of them can still be
 * reached with the keys, read whole once it shows.
 */
class TopLongQueueTest {
  private static final int WAITING = 5000;
  private static final long LAST = WAITING + 2;
  @TempDir Path dir;
  private Cli cli;
  private TopReads reads;

  /** Jobs 1 and 2 running, 3 to 5002 waiting for GPUs. */
  @BeforeEach
  void queue() {
    cli = new Cli(dir);
    cli.api.add(Jobs.job(1, JobState.RUNNING));
    cli.api.add(Jobs.job(2, JobState.RUNNING));
    for (long id = 3; id <= LAST; id++) {
      cli.api.add(Jobs.job(id, JobState.WAITING));
      cli.api.waits.put(id, new WaitReason.GpusBusy(1, 0, List.of()));
    }
    reads = new TopReads(new Invocation(cli.io, cli.api, null));
  }

  private static List<String> render(TopData d, TopView v) {
    return TopScreen.render(d, v, 200, 60).stream().map(AttributedString::toString).toList();
  }

  private static String row(List<String> screen, long id) {
    return screen.stream().filter(l -> l.startsWith(id + " ")).findFirst().orElse(null);
  }

  /** How many jobs the listings asked for read whole, by id. */
  private long readWhole() {
    long n = 0;
    for (JobQuery q : cli.api.queries) for (long[] r : q.ranges()) n += r[1] - r[0] + 1;
    return n;
  }

  @Test
  void aScreenReadsWholeOnlyTheJobsItDrawsAndAsksWhyOnlyTheyWait() throws ApiException {
    TopView v = new TopView();
    List<String> screen = render(reads.gather(v, 200, 60), v);
    for (JobQuery q : cli.api.queries)
      assertTrue(q.limit() > 0 || !q.ranges().isEmpty(), "no listing of every live job: " + q.states() + " " + q.limit());
    assertTrue(readWhole() <= 60, "read whole: " + readWhole());
    assertEquals(0, cli.api.waitReasonCalls, "no question about every job's reason");
    int asked = cli.api.waitAsks.stream().mapToInt(List::size).sum();
    assertTrue(asked > 0 && asked <= 60, "reasons asked for " + asked + " jobs");
    String first = row(screen, 3);
    assertNotNull(first, String.join("\n", screen));
    assertTrue(first.contains("python") && first.contains("GPUs busy"), "a shown row is whole: " + first);
    assertTrue(screen.get(0).contains("2 running, " + WAITING + " waiting"), screen.get(0));
    String below = screen.stream().filter(l -> l.contains("more (Page Down)")).findFirst().orElseThrow();
    long shown = screen.stream().filter(l -> l.matches("[0-9]+ .*")).count();
    assertTrue(below.contains("↓ " + (LAST - shown) + " more"), below + " with " + shown + " shown");
  }

  @Test
  void theEndKeyReachesTheLastJobAndItsRowIsReadWhole() throws ApiException {
    TopView v = new TopView();
    TopData d = reads.gather(v, 200, 60);
    render(d, v);
    TopData shown = d;
    for (TopKeys.Key k : TopKeys.parse("G")) v.press(k, TopScreen.shown(shown, v), shown::whole);
    assertEquals(LAST, v.selected());
    d = reads.detail(d, v, 200, 60);
    List<String> screen = render(d, v);
    String last = row(screen, LAST);
    assertNotNull(last, String.join("\n", screen));
    assertTrue(last.contains("python") && last.contains("GPUs busy"), last);
    assertTrue(screen.stream().anyMatch(l -> l.contains("more (Page Up)")), String.join("\n", screen));
    assertTrue(cli.api.waitAsks.get(cli.api.waitAsks.size() - 1).contains(LAST), "the new rows' reasons were asked for");
  }

  @Test
  void pageDownStaysOnItsJobAsJobsAboveItEnd() throws ApiException {
    TopView v = new TopView();
    TopData d = reads.gather(v, 200, 60);
    render(d, v);
    for (int i = 0; i < 3; i++) {
      TopData at = d;
      for (TopKeys.Key k : TopKeys.parse("\u001b[6~")) v.press(k, TopScreen.shown(at, v), at::whole);
      d = reads.detail(d, v, 200, 60);
      render(d, v);
    }
    long selected = v.selected();
    assertTrue(selected > 100, "three pages down: " + selected);
    for (long id = 3; id < 13; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    List<String> screen = render(reads.gather(v, 200, 60), v);
    assertEquals(selected, v.selected());
    assertNotNull(row(screen, selected), String.join("\n", screen));
  }

  @Test
  void aClientThatGoesWhileTheScreenIsReadGetsNothingMoreDrawn() throws Exception {
    cli.io.screen = true;
    cli.io.height = 40;
    Thread top = Thread.ofVirtual().start(() -> cli.run("top"));
    long until = System.nanoTime() + 20_000_000_000L;
    while (!cli.io.stdout().contains("gq top") && System.nanoTime() < until) Thread.sleep(10);
    assertTrue(cli.io.stdout().contains("gq top"), "the first screen");
    // the client goes while the next screen is read, and a job arrives that that screen would show
    AtomicInteger sent = new AtomicInteger(-1);
    cli.api.steps.add(() -> {
      cli.api.add(Jobs.job(1, JobState.DONE));
      cli.io.leave();
      sent.set(cli.io.stdout().length());
    });
    top.join(20_000);
    assertFalse(top.isAlive(), "gq top ended once its client went");
    assertTrue(sent.get() >= 0, "the next screen was read");
    assertEquals(sent.get(), cli.io.stdout().length(), "nothing drawn after the client went");
  }
}
