package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.proc.ProcessIdentity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@code gq ps --json}'s writer writes every job exactly as the tree of {@link JsonView#job} prints. */
class JobJsonTest {
  private static String viaTree(List<Job> jobs) {
    return viaTree(jobs, Map.of());
  }

  private static String viaTree(List<Job> jobs, Map<Long, WaitReason> waits) {
    return JsonView.pretty(JsonView.jobs(jobs, waits)) + "\n";
  }

  private static String streamed(List<Job> jobs) {
    return streamed(jobs, Map.of());
  }

  private static String streamed(List<Job> jobs, Map<Long, WaitReason> waits) {
    StringWriter text = new StringWriter();
    PrintWriter out = new PrintWriter(text);
    JsonView.ArrayStream array = new JsonView.ArrayStream(out);
    jobs.forEach(j -> array.add(j, waits.get(j.id())));
    array.end();
    out.flush();
    return text.toString();
  }

  @Test
  void everyFieldIsWrittenAsTheTreePrintsIt() {
    String odd = "q\"b\\s/\t\r\b\f\n\u0000\u0001\u001b\u007f\u0085\u009f\u00a0caf\u00e9 \u2026\u2028\u2029\u202a\u202e\u2066\u2069"
        + "\ud83d\ude00 lone \ud800";
    JobSpec full = new JobSpec(List.of("/usr/bin/python", odd, "it's", ""), odd, Map.of("SECRET", "x"), 3, odd, odd, odd,
        List.of(new Dependency(3, true), new Dependency(40, false)), 2, Duration.ofMinutes(90), -7,
        Jobs.T0.plusNanos(123_456_789), "--resume {ckpt}", "/ckpt/7", "gpu-cluster", new GpuNeed(40_000, List.of("A100", odd), true, 2));
    Job running = new Job(7, full, JobState.RUNNING, Jobs.T0, Jobs.T0.plusSeconds(5), null,
        List.of(new GpuSlot("GPU-b", 11), new GpuSlot("GPU-a", 2)), new ProcessIdentity(4242, 4242, 4242, 9, "boot"), null,
        "/logs/" + odd, odd, "tag", 3L, null, "slurm-991");
    Job adopted = new Job(8, Jobs.spec("x"), JobState.RUNNING, Jobs.T0, Jobs.T0, null, List.of(),
        new ProcessIdentity(99, 0, 0, 1, "boot"), null, null, null, "t", null);
    Job ended = new Job(9, Jobs.spec(0, null, null, null, "make"), JobState.FAILED, Jobs.T0, Jobs.T0, Jobs.T0.plusSeconds(1),
        List.of(), null, -9, "/l/9", "killed", "t", null, 31337L, null);
    List<Job> jobs = List.of(running, adopted, ended, Jobs.job(1, JobState.WAITING), Jobs.job(2, JobState.DONE),
        Jobs.job(3, JobState.WAITING, new JobSpec(List.of(), null, Map.of(), 0, null, null, null)));
    assertEquals(viaTree(jobs), streamed(jobs));
    assertEquals(viaTree(List.of()), streamed(List.of()));
  }

  @Test
  void aWaitingJobsReasonIsWrittenAsTheTreeNestsIt() {
    String odd = "q\"b\u001b\u202e\ud83d\ude00";
    List<Job> jobs = List.of(Jobs.job(1, JobState.WAITING), Jobs.job(2, JobState.WAITING), Jobs.job(3, JobState.WAITING),
        Jobs.job(4, JobState.RUNNING), Jobs.job(5, JobState.WAITING));
    Map<Long, WaitReason> waits = Map.of(
        1L, new WaitReason.GpusBusy(2, 0, List.of(FakeApi.holder(0, GpuState.RUNNING, 4L), FakeApi.holder(1, GpuState.EXTERNAL, null))),
        2L, new WaitReason.GroupHeld(odd, odd),
        3L, new WaitReason.After(9, true),
        // a reason for a job that no longer waits is not written
        4L, new WaitReason.QueueHeld());
    assertEquals(viaTree(jobs, waits), streamed(jobs, waits));
    assertTrue(streamed(jobs, waits).contains("\"wait_reason\": {"), streamed(jobs, waits));
  }

  @Test
  void anyTextInAStringIsEscapedAsTheTreeEscapesIt() {
    Random random = new Random(17);
    List<Job> jobs = new ArrayList<>();
    for (long id = 1; id <= 300; id++) {
      char[] cs = new char[random.nextInt(30)];
      for (int i = 0; i < cs.length; i++) cs[i] = (char) (random.nextInt(4) == 0 ? random.nextInt(0x10000) : random.nextInt(0x100));
      String s = new String(cs);
      jobs.add(Jobs.job(id, JobState.WAITING, Jobs.spec(1, s, s, s, "python", s)));
    }
    assertEquals(viaTree(jobs), streamed(jobs));
  }
}
