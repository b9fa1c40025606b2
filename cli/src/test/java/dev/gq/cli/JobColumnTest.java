package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobColumnTest {
  @Test
  void elapsedIsWrittenAsSqueueDoes() {
    assertEquals("0:05", JobColumn.clock(Duration.ofSeconds(5)));
    assertEquals("12:34", JobColumn.clock(Duration.ofSeconds(12 * 60 + 34)));
    assertEquals("1:02:03", JobColumn.clock(Duration.ofSeconds(3723)));
    assertEquals("2-01:02:03", JobColumn.clock(Duration.ofDays(2).plusSeconds(3723)));
    assertEquals("0:00", JobColumn.clock(Duration.ofSeconds(-3)), "a clock that stepped back shows no time, not a negative one");
  }

  @Test
  void elapsedRunsToNowWhileRunningAndToTheEndOnceEnded() {
    var now = Jobs.T0.plusSeconds(91);
    assertEquals("1:30", JobColumn.elapsed(Jobs.job(1, JobState.RUNNING), now));
    assertEquals("0:59", JobColumn.elapsed(Jobs.job(2, JobState.DONE), now));
    assertEquals("-", JobColumn.elapsed(Jobs.job(3, JobState.WAITING), now));
  }

  @Test
  void defaultColumnsAppearWhenAListedJobHasSomethingThere() {
    var waiting = List.of(Jobs.job(1, JobState.WAITING));
    assertEquals(List.of(JobColumn.ID, JobColumn.STATE, JobColumn.GPUS, JobColumn.NAME, JobColumn.WAIT, JobColumn.COMMAND),
        JobColumn.defaults(waiting, false, false));
    var ended = List.of(Jobs.job(1, JobState.FAILED, Jobs.spec(1, null, "g", null, "x")));
    assertEquals(List.of(JobColumn.ID, JobColumn.STATE, JobColumn.GPUS, JobColumn.GROUP, JobColumn.NAME, JobColumn.ELAPSED,
        JobColumn.EXIT, JobColumn.COMMAND), JobColumn.defaults(ended, false, false));
  }

  @Test
  void waitShowsTheBriefReasonOfAWaitingJobOnly() {
    var ctx = new JobTable.Context(Map.of(1L, new WaitReason("after 7", "waiting for job 7 to end"),
        2L, new WaitReason("queue held", "the queue is held")), Set.of(), Jobs.T0);
    assertEquals("after 7", JobColumn.WAIT.cell(Jobs.job(1, JobState.WAITING), ctx));
    assertEquals("-", JobColumn.WAIT.cell(Jobs.job(2, JobState.RUNNING), ctx));
    assertEquals("-", JobColumn.WAIT.cell(Jobs.job(3, JobState.WAITING), ctx), "no reason known");
  }
}
