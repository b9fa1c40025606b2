package dev.gq.web;

import dev.gq.api.ApiReplies.BookingLine;
import dev.gq.api.GqApi;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.schedule.FairWho;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/** Machine views for the rendering tests: two GPUs, one held by a job, and hostile text where users write it. */
final class Views {
  static final String FORGED = "<img src=x onerror=alert(1)>\"'\u001b[31m\u009b&";
  static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private Views() {}

  static Job job(long id, String name, JobState state, List<String> argv) {
    JobSpec spec = new JobSpec(argv, "/home/alice", Map.of(), 1, name, FORGED, null, List.of(), 0, null, 0, null, null, null, null);
    List<GpuSlot> gpus = state == JobState.RUNNING ? List.of(new GpuSlot("GPU-a", 0)) : List.of();
    return new Job(id, spec, state, NOW.minusSeconds(60), state == JobState.RUNNING ? NOW.minusSeconds(30) : null, null,
        gpus, null, null, "/tmp/" + id + ".log", null, null, null);
  }

  static MachineView view() {
    GpuStatus held = new GpuStatus(0, "GPU-a", "H100", GpuState.RUNNING, 7L, List.of(), 80L << 30, 10L << 30, null, null);
    GpuStatus outside = new GpuStatus(1, "GPU-b", FORGED, GpuState.EXTERNAL, null, List.of(new GpuProcess(4242, 1 << 30)),
        80L << 30, 1L << 30, "an outside process " + FORGED, null);
    GqApi.GpuReport gpus = new GqApi.GpuReport(List.of(held, outside), "fake", true, null,
        Map.of("GPU-a", new GpuFigures(97, 40, 71, 300, 700)), Map.of("GPU-b", "Xid 79"));
    FairWho.Row bob = new FairWho.Row(FORGED, 1001, 1, 1, 2, 2, NOW.minusSeconds(600));
    BookingLine booking = new BookingLine("b1", "carol", List.of(1), List.of("GPU-b"), NOW, NOW.plusSeconds(3600));
    GqApi.WhoReport who = new GqApi.WhoReport("no policy file", false, List.of(bob), Map.of(), List.of(booking));
    List<Job> jobs = List.of(job(7, FORGED, JobState.RUNNING, List.of("python", "train.py")),
        job(8, null, JobState.WAITING, List.of("echo", FORGED)));
    return new MachineView(NOW, ZoneOffset.UTC, "alice", gpus, Map.of(), who, jobs,
        Map.of(8L, new WaitReason.GpusBusy(1, 0, List.of())), Map.of(), List.of(), false);
  }
}
