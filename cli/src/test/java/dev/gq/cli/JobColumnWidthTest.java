package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.WaitReason;
import dev.gq.core.proc.ProcessIdentity;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobColumnWidthTest {
  @Test
  void aColumnsWidthIsTheLengthOfItsCellAsShown() {
    JobTableContext ctx = new JobTableContext(Map.of(12L, new WaitReason.SlurmQueued("77\t1")), Set.of("held"),
        Jobs.T0.plusSeconds(90_000), Map.of(), Set.of(), Map.of(12L, 1234), Map.of(7L, "idle 45m"));
    JobSpec odd = new JobSpec(List.of("/usr/bin/python", "tr\u202eain.py", "it's"), "/w", Map.of(), 3, "n\u0007me", "held", "k", List.of(),
        0, null, -100);
    List<Job> jobs = List.of(
        Jobs.job(1, JobState.WAITING),
        Jobs.job(12, JobState.WAITING, odd),
        Jobs.job(7, JobState.RUNNING, Jobs.spec(2, null, "g", null, "make")),
        Jobs.job(9_999_999_999L, JobState.FAILED),
        new Job(8, Jobs.spec(0, null, null, "key-1", "x"), JobState.RUNNING, Jobs.T0, Jobs.T0, null,
            List.of(new GpuSlot("b", 11), new GpuSlot("a", 3), new GpuSlot("c", 100)), new ProcessIdentity(4_000_000, 1, 1, 5, "b"),
            -9, null, null, "t", null));
    for (Job job : jobs)
      for (JobColumn c : JobColumn.values())
        assertEquals(PrintableText.escape(c.cell(job, ctx)).length(), c.width(job, ctx), c + " of job " + job.id());
  }

  @Test
  void digitsCountTheSign() {
    assertEquals(1, JobColumn.digits(0));
    assertEquals(3, JobColumn.digits(-10));
    assertEquals(19, JobColumn.digits(Long.MAX_VALUE));
    assertEquals(20, JobColumn.digits(Long.MIN_VALUE));
  }
}
