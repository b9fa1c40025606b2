package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Placement on mixed cards: each job only on GPUs with the memory and type it asks for. */
class GpuFitTest {
  private static final long MIB = 1L << 20;

  /** Two 24 GB RTX 4090s (GPUs 0, 1) and two 80 GB H100s (GPUs 2, 3). */
  static GpuStatus card(int index, GpuState state) {
    boolean big = index >= 2;
    Long owner = state == GpuState.RUNNING ? (long) (90 + index) : null;
    return new GpuStatus(index, uuid(index), big ? "NVIDIA H100 80GB HBM3" : "NVIDIA GeForce RTX 4090", state, owner,
        List.of(), (big ? 81559 : 24564) * MIB, 0, null);
  }

  static List<DeviceReading> devices() {
    return List.of(0, 1, 2, 3).stream().map(i -> new DeviceReading(i, uuid(i), card(i, GpuState.FREE).name(),
        card(i, GpuState.FREE).totalBytes(), 0, List.of(), null)).toList();
  }

  static JobSpec needing(int gpus, String vram, String... types) {
    return spec(gpus).withGpuNeed(GpuNeed.of(vram == null ? 0 : GpuNeed.parseMiB(vram), List.of(types)));
  }

  static Job job(long id, JobSpec spec) {
    return new Job(id, spec, JobState.WAITING, T0.plusSeconds(id), null, null, List.of(), null, null, null, null, tag(id), null);
  }

  @Test
  void aBigJobGoesOnlyToACardWithEnoughMemoryAndWaitsWhileThoseAreBusy() {
    var gpus = List.of(card(0, GpuState.FREE), card(1, GpuState.FREE), card(2, GpuState.RUNNING), card(3, GpuState.RUNNING));
    Plan p = Allocator.plan(List.of(job(1, needing(1, "40G")), job(2, spec(1))), gpus, Map.of());
    assertEquals(1, p.reservations().size());
    assertEquals(2L, p.reservations().get(0).jobId(), "the job without a need backfills a small card");
    assertEquals(List.of(new GpuSlot(uuid(0), 0)), p.reservations().get(0).gpus());
    assertEquals("needs 1 GPU with ≥ 37.3 GiB: GPUs 2,3 fit, both busy (GPU 2: job 92; GPU 3: job 93)",
        p.waitReasons().get(1L).text());
    assertEquals("fitting GPUs busy", p.waitReasons().get(1L).brief());
  }

  @Test
  void aBigJobTakesTheLowestFittingCard() {
    var gpus = List.of(card(0, GpuState.FREE), card(1, GpuState.FREE), card(2, GpuState.RUNNING), card(3, GpuState.FREE));
    Plan p = Allocator.plan(List.of(job(1, needing(1, "40G"))), gpus, Map.of());
    assertEquals(List.of(new GpuSlot(uuid(3), 3)), p.reservations().get(0).gpus());
  }

  @Test
  void aTypedJobGoesToACardOfThatType() {
    var gpus = List.of(card(0, GpuState.RUNNING), card(1, GpuState.FREE), card(2, GpuState.FREE), card(3, GpuState.FREE));
    Plan p = Allocator.plan(List.of(job(1, needing(1, null, "4090")), job(2, needing(2, null, "h100"))), gpus, Map.of());
    assertEquals(List.of(new GpuSlot(uuid(1), 1)), p.reservations().get(0).gpus());
    assertEquals(List.of(new GpuSlot(uuid(2), 2), new GpuSlot(uuid(3), 3)), p.reservations().get(1).gpus());
  }

  @Test
  void aJobNoCardCanEverHoldIsRefusedNamingTheLargestCard() {
    assertEquals("--vram 93.1 GiB: the largest GPU here has 79.6 GiB (GPU 2, NVIDIA H100 80GB HBM3); ask for at most --vram 79.6GiB",
        GpuFit.refusal(needing(1, "100G"), devices()));
    assertEquals("--gpu-type 4090 --vram 37.3 GiB: the largest 4090 GPU here has 24.0 GiB (GPU 0, NVIDIA GeForce RTX 4090);"
        + " ask for at most --vram 23.9GiB", GpuFit.refusal(needing(1, "40G", "4090"), devices()));
    assertNull(GpuFit.refusal(needing(2, "80G"), devices()));
  }

  @Test
  void aJobAskingForMoreFittingCardsThanThereAreIsRefusedSayingHowMany() {
    assertEquals("-g 3 --vram 37.3 GiB: only 2 GPUs here fit (GPUs 2,3); ask for at most -g 2",
        GpuFit.refusal(needing(3, "40G"), devices()));
  }

  @Test
  void anUnknownTypeIsRefusedNamingTheTypesPresent() {
    assertEquals("--gpu-type A100: no GPU here is A100 (here: NVIDIA GeForce RTX 4090, NVIDIA H100 80GB HBM3);"
        + " name one of those, or leave out --gpu-type", GpuFit.refusal(needing(1, null, "A100"), devices()));
  }

  @Test
  void nothingIsRefusedWhenADeviceCouldNotBeReadOrTheJobRunsOnACluster() {
    List<DeviceReading> one = List.of(devices().get(0), DeviceReading.failed(1, uuid(1), "gone"));
    assertNull(GpuFit.refusal(needing(1, "40G"), one));
    assertNull(GpuFit.refusal(needing(1, "100G").withCluster("a100"), devices()));
    assertNull(GpuFit.refusal(needing(1, "100G"), List.of()), "no reading yet");
  }

  @Test
  void aGpuKeptForAJobItDoesNotFitGoesToAnyone() {
    var gpus = List.of(card(0, GpuState.FREE), card(2, GpuState.FREE));
    var rules = new PlanRules(T0, PlanRules.GATHER_AFTER, 100, Map.of(), Map.of(), Map.of(uuid(0), 1L, uuid(2), 1L));
    Plan p = Allocator.plan(List.of(job(1, needing(1, "40G")), job(2, spec(1))), gpus, Map.of(), rules);
    assertEquals(List.of(new GpuSlot(uuid(2), 2)), p.reservations().get(0).gpus(), "job 1 gets the kept card that fits");
    assertEquals(2L, p.reservations().get(1).jobId());
    assertEquals(List.of(new GpuSlot(uuid(0), 0)), p.reservations().get(1).gpus(), "the small kept card is not held back");
  }

  @Test
  void aJobWhoseCardIsGoneWaitsSayingNoneFits() {
    var gpus = List.of(card(0, GpuState.FREE), card(1, GpuState.FREE));
    Plan p = Allocator.plan(List.of(job(1, needing(1, "40G"))), gpus, Map.of());
    assertTrue(p.reservations().isEmpty());
    assertEquals("needs 1 GPU with ≥ 37.3 GiB: no GPU here fits; see 'gq gpu'", p.waitReasons().get(1L).text());
  }
}
