package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiException;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq ps} with a queue longer than a page: the default list (every live job and the newest
 * ended ones) is read a page at a time, never whole, and prints exactly what one whole list would.
 */
class PsStreamTest {
  private static final int WAITING = 1200;
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.api.now = Jobs.T0.plusSeconds(3600);
    cli.io.env.put("NO_COLOR", "1");
    cli.io.stdoutTty = false;
    for (long id = 1; id <= 30; id++) cli.api.add(Jobs.job(id, JobState.DONE));
    // the oldest waiting job has the longest name: its width must reach the first page's rows
    cli.api.add(Jobs.job(31, JobState.WAITING, Jobs.spec(0, "a-much-longer-name", null, null, "make", "all")));
    for (long id = 32; id < 31 + WAITING; id++) cli.api.add(Jobs.job(id, JobState.WAITING, Jobs.spec(0, null, null, null, "make", "all")));
  }

  @Test
  void jsonOfALongQueueIsReadInPagesAndIsTheWholeArray() {
    Cli.Result r = cli.run("ps", "--json");
    assertEquals(0, r.code(), r.err());
    assertEquals(JsonView.pretty(JsonView.jobs(expected())) + "\n", r.out());
    assertPaged();
  }

  @Test
  void tableOfALongQueueIsReadInPagesInTheWidthsOfTheWholeList() {
    Cli.Result r = cli.run("ps");
    assertEquals(0, r.code(), r.err());
    StringBuilder want = new StringBuilder("JOB   STATE    GPUS  NAME                WAIT  ELAPSED  EXIT  COMMAND\n");
    for (Job j : expected()) {
      boolean done = j.state() == JobState.DONE;
      want.append(String.format("%-4s  %-7s  %-4s  %-18s  %-4s  %-7s  %-4s  %s%n", j.id(), j.state(), done ? "0" : "-",
          j.id() == 31 ? "a-much-longer-name" : done ? "python" : "make", "-", done ? "0:59" : "-", done ? "0" : "-",
          done ? "python train.py" : "make all"));
    }
    assertEquals(want.toString(), r.out());
    assertPaged();
  }

  @Test
  void aRefusalOfAPageReadAheadIsTheCommandsOneLine() {
    // the ended jobs, the first page, then the second page is refused
    cli.api.steps.add(() -> { });
    cli.api.steps.add(() -> cli.api.refuseWith = new ApiException("the history is gone"));
    Cli.Result r = cli.run("ps");
    assertEquals(1, r.code(), r.toString());
    assertTrue(r.err().endsWith("\ngq: the history is gone\n"), r.err());
  }

  /** Every live job and the 20 newest ended ones, newest first. */
  private List<Job> expected() {
    List<Job> all = new ArrayList<>(cli.api.jobs.values());
    all.removeIf(j -> j.state() == JobState.DONE && j.id() <= 10);
    all.sort(Comparator.comparingLong(Job::id).reversed());
    return all;
  }

  private void assertPaged() {
    for (JobQuery q : cli.api.queries)
      assertTrue(q.limit() > 0 && q.limit() <= PsPages.PAGE, "a read of " + (q.limit() == 0 ? "every" : q.limit()) + " job(s)");
  }
}
