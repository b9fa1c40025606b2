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
  void everyPartOfTheClockIsPaddedAsSqueueDoes() {
    assertEquals("59:59", JobColumn.clock(Duration.ofSeconds(3599)));
    assertEquals("10:00:00", JobColumn.clock(Duration.ofHours(10)));
    assertEquals("23:59:59", JobColumn.clock(Duration.ofDays(1).minusSeconds(1)));
    assertEquals("1-00:00:00", JobColumn.clock(Duration.ofDays(1)));
    assertEquals("123-10:09:08", JobColumn.clock(Duration.ofDays(123).plusHours(10).plusMinutes(9).plusSeconds(8)));
    assertEquals("1:00:09", JobColumn.clock(Duration.ofSeconds(3609)));
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
    var ctx = new JobTableContext(Map.of(1L, new WaitReason.After(7, false),
        2L, new WaitReason.QueueHeld()), Set.of(), Jobs.T0);
    assertEquals("after 7", JobColumn.WAIT.cell(Jobs.job(1, JobState.WAITING), ctx));
    assertEquals("-", JobColumn.WAIT.cell(Jobs.job(2, JobState.RUNNING), ctx));
    assertEquals("-", JobColumn.WAIT.cell(Jobs.job(3, JobState.WAITING), ctx), "no reason known");
  }

  @Test
  void theCommandShowsWhatTheUserTypedNotTheVenvsInterpreterPath() {
    assertEquals("python train.py --lr 3e-4", JobColumn.command(List.of("/home/me/proj/.venv/bin/python", "train.py", "--lr", "3e-4")));
    assertEquals("nvcc -O2 x.cu", JobColumn.command(List.of("/usr/local/cuda/bin/nvcc", "-O2", "x.cu")));
    assertEquals("./run.sh a", JobColumn.command(List.of("./run.sh", "a")));
    assertEquals("/opt/tool/run 'a b'", JobColumn.command(List.of("/opt/tool/run", "a b")));
    assertEquals("", JobColumn.command(List.of()));
  }

  @Test
  void aJobWithoutANameIsToldApartByItsKey() {
    var keyed = Jobs.job(1, JobState.WAITING, Jobs.spec(1, null, "sweep", "lr=3e-4", "uv", "run", "train.py"));
    var named = Jobs.job(2, JobState.WAITING, Jobs.spec(1, "eval", "sweep", "lr=1e-3", "uv", "run", "eval.py"));
    var plain = Jobs.job(3, JobState.WAITING, Jobs.spec(1, null, null, null, "uv", "run", "x.py"));
    assertEquals("lr=3e-4", JobColumn.name(keyed));
    assertEquals("eval", JobColumn.name(named));
    assertEquals("uv", JobColumn.name(plain));
  }
}
