package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.GqApi;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuCommandTest {
  private static final long GIB = 1L << 30;
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private static List<GpuStatus> twoGpus() {
    return List.of(
        new GpuStatus(0, "GPU-8f3a2c1d-1111-2222-3333-444455556666", "H100", GpuState.RUNNING, 7L,
            List.of(new GpuProcess(1234, GIB)), 80 * GIB, 2 * GIB, null),
        new GpuStatus(1, "GPU-b", "H100", GpuState.EXTERNAL, null,
            List.of(new GpuProcess(1, 1), new GpuProcess(2, 1), new GpuProcess(3, 1), new GpuProcess(4, 1),
                new GpuProcess(5, 1)), 80 * GIB, 40 * GIB, "compute processes gq does not own: 1, 2, 3, 4, 5"));
  }

  @Test
  void tableShowsStateOwnerProcessesAndMemory() {
    cli.api.gpus = new GqApi.GpuReport(twoGpus(), "NVML 550.54", false, null);
    cli.io.width = 140;
    Cli.Result r = cli.run("gpu");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        GPU  UUID                TYPE  STATE     OWNER     PIDS        MEMORY      DETAIL
        0    GPU-8f3a2c1d-1111…  H100  RUNNING   job 7     1234        2.0/80.0G   -
        1    GPU-b               H100  EXTERNAL  external  1,2,3,4,+1  40.0/80.0G  compute processes gq does not own: 1, 2, 3, 4, 5
        """, r.out());
    assertEquals("", r.err());
  }

  @Test
  void eachCardShowsItsTypeWithoutTheMakersWord() {
    GpuStatus small = new GpuStatus(0, "GPU-a", "NVIDIA GeForce RTX 4090", GpuState.FREE, null, List.of(), 24564L << 20, 0, null);
    cli.api.gpus = new GqApi.GpuReport(List.of(small), "NVML", false, null);
    cli.io.width = 140;
    Cli.Result r = cli.run("gpu");
    assertTrue(r.out().contains("\n0    GPU-a  GeForce RTX 4090  FREE   -      -     0.0/24.0G  -\n"), r.out());
  }

  @Test
  void detailIsCutToTheTerminalWidth() {
    cli.api.gpus = new GqApi.GpuReport(twoGpus(), "NVML 550.54", false, null);
    cli.io.width = 90;
    assertTrue(cli.run("gpu").out().lines().allMatch(l -> l.length() <= 90));
  }

  @Test
  void fakeGpusAreSaidPlainly() {
    cli.api.gpus = new GqApi.GpuReport(twoGpus(), "/tmp/fake", true, null);
    String out = cli.run("gpu").out();
    assertTrue(out.endsWith("These GPUs are fake (/tmp/fake); no real device is used.\n"), out);
  }

  @Test
  void probeFailureIsReportedButKnownGpusStillShow() {
    GpuStatus unknown = new GpuStatus(0, "GPU-a", "unknown", GpuState.UNKNOWN, null, List.of(), 0, 0, "NVML: driver gone");
    cli.api.gpus = new GqApi.GpuReport(List.of(unknown), "NVML", false, "driver gone");
    Cli.Result r = cli.run("gpu");
    assertEquals(0, r.code());
    assertTrue(r.out().contains("\n0    GPU-a  unknown  UNKNOWN  -      -     -       NVML: driver gone\n"), r.out());
    assertEquals("gq: the GPU probe failed: driver gone; GPUs it cannot read are UNKNOWN and get no new jobs\n", r.err());
  }

  @Test
  void probeFailureWithNoGpuKnownFails() {
    cli.api.gpus = new GqApi.GpuReport(List.of(), "NVML", false, "libnvidia-ml.so.1 not found");
    Cli.Result r = cli.run("gpu");
    assertEquals(1, r.code());
    assertEquals("", r.out());
  }

  @Test
  void noGpus() {
    assertEquals("No GPUs found; jobs with -g 0 still run.\n", cli.run("gpu").out());
  }

  @Test
  void jsonIsAnArrayAndNotesGoToStderr() {
    cli.api.gpus = new GqApi.GpuReport(twoGpus(), "/tmp/fake", true, null);
    Cli.Result r = cli.run("gpu", "--json");
    assertTrue(r.out().startsWith("[\n  {\n    \"index\": 0,\n    \"uuid\": \"GPU-8f3a2c1d-1111-2222-3333-444455556666\",\n"), r.out());
    assertTrue(r.out().contains("\"total_memory\": 85899345920,"), r.out());
    assertTrue(r.err().contains("fake"), r.err());
  }

  @Test
  void aSharedGpuShowsItsJobsTheirSharesAndWhatIsLeft() {
    var shares = java.util.List.of(new dev.gq.core.gpu.GpuStatus.Share(4, 19074, 0, 100),
        new dev.gq.core.gpu.GpuStatus.Share(5, 19074, 0, 25_000));
    var g = new dev.gq.core.gpu.GpuStatus(0, "GPU-a", "NVIDIA H100 80GB HBM3", dev.gq.core.gpu.GpuState.SHARED, 4L,
        java.util.List.of(), 81559L << 20, 0, null, null, shares);
    assertEquals("jobs 4 (18.6G), 5 (18.6G, uses 24.4G: over); 41.4G left; no more jobs go here while a job uses more than"
        + " it declared", GpuCommand.detail(g, 1024));
    var fine = new dev.gq.core.gpu.GpuStatus(0, "GPU-a", "NVIDIA H100 80GB HBM3", dev.gq.core.gpu.GpuState.SHARED, 4L,
        java.util.List.of(), 81559L << 20, 0, null, null, shares.subList(0, 1));
    assertEquals("job 4 (18.6G); 60.0G left", GpuCommand.detail(fine, 1024));
  }

  @Test
  void aSharedGpuShowsOtherInstancesSharesByHolderAfterItsOwn() {
    var others = java.util.List.of(new dev.gq.core.gpu.GpuStatus.Other("bob's job 3", 19074),
        new dev.gq.core.gpu.GpuStatus.Other("job 7 of the gq in /scratch/gq", 9537));
    var mine = java.util.List.of(new dev.gq.core.gpu.GpuStatus.Share(4, 19074, 0, 100));
    var both = new dev.gq.core.gpu.GpuStatus(0, "GPU-a", "NVIDIA H100 80GB HBM3", dev.gq.core.gpu.GpuState.SHARED, 4L,
        java.util.List.of(), 81559L << 20, 0, null, null, mine, others);
    assertEquals("job 4 (18.6G), bob's job 3 (18.6G), job 7 of the gq in /scratch/gq (9.3G); 32.1G left",
        GpuCommand.detail(both, 1024));
    var theirs = new dev.gq.core.gpu.GpuStatus(0, "GPU-a", "NVIDIA H100 80GB HBM3", dev.gq.core.gpu.GpuState.SHARED, null,
        java.util.List.of(), 81559L << 20, 0, null, "bob's job 3", java.util.List.of(), others.subList(0, 1));
    assertEquals("bob's job 3 (18.6G); 60.0G left", GpuCommand.detail(theirs, 1024));
  }

  @Test
  void aSharedMachineShowsEveryonesPartThePolicyAndTheBookingsAfterTheTable() {
    cli.api.gpus = new GqApi.GpuReport(twoGpus(), "NVML 550.54", false, null);
    cli.io.width = 140;
    cli.io.env.put("TZ", "UTC");
    cli.api.who = new GqApi.WhoReport("at most 2 GPUs per user while others wait; fair turn 30s", true, List.of(
        new dev.gq.core.schedule.FairWho.Row("alice", 1001, 1, 1, 0, 0, null),
        new dev.gq.core.schedule.FairWho.Row("bob", 1002, 0, 0, 2, 2, Jobs.T0)), Map.of(),
        List.of(new GqApi.BookingLine("b1", "carol", List.of(1), List.of("GPU-b"), Jobs.T0, Jobs.T0.plusSeconds(3600))));
    Cli.Result r = cli.run("gpu");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().endsWith("""
        1    GPU-b               H100  EXTERNAL  external  1,2,3,4,+1  40.0/80.0G  compute processes gq does not own: 1, 2, 3, 4, 5

        Everyone on this machine (gq who):
          alice  1 GPU held, 1 job running, 0 waiting
          bob    0 GPUs held, 0 jobs running, 2 waiting for 2 GPUs since 2025-03-01 10:00:00
        Policy: at most 2 GPUs per user while others wait; fair turn 30s
        Booked: GPU 1 by carol from 2025-03-01 10:00:00 to 2025-03-01 11:00:00 (b1)
        """), r.out());
    // the JSON stays the GPUs alone; gq who --json has everyone
    assertTrue(cli.run("gpu", "--json").out().strip().startsWith("["));
  }

  @Test
  void aLoneUserWithoutPolicyOrBookingSeesTheTableAlone() {
    cli.api.gpus = new GqApi.GpuReport(twoGpus(), "NVML 550.54", false, null);
    cli.io.width = 140;
    cli.api.who = new GqApi.WhoReport("none (first come, first served)", false, List.of(
        new dev.gq.core.schedule.FairWho.Row("alice", 1001, 1, 1, 3, 3, Jobs.T0)), Map.of());
    Cli.Result r = cli.run("gpu");
    assertEquals(3, r.out().lines().count(), r.out());
    assertTrue(r.out().endsWith("compute processes gq does not own: 1, 2, 3, 4, 5\n"), r.out());
  }
}
