package dev.gq.core.alloc;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseRules;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuClassifierTest {

  /** Classifies {@code devices} with {@code jobs} holding their GPUs, the only live jobs. */
  private static List<GpuStatus> classify(List<DeviceReading> devices, Map<Long, ProcessFacts> facts, Job... jobs) {
    Map<String, Job> reservations = new HashMap<>();
    for (Job j : jobs) for (var s : j.gpus()) reservations.put(s.uuid(), j);
    var obs = new GpuObservation(new GpuReading(T0, devices, null), facts);
    return GpuClassifier.classify(obs, List.of(), reservations, Arrays.asList(jobs));
  }

  private static GpuStatus one(DeviceReading device, Map<Long, ProcessFacts> facts, Job... jobs) {
    List<GpuStatus> out = classify(List.of(device), facts, jobs);
    assertEquals(1, out.size());
    return out.get(0);
  }

  @Test
  void failedReadingMarksEveryLastKnownGpuUnknownAndKeepsOwners() {
    Job holder = holding(7, JobState.RUNNING, 1);
    var obs = new GpuObservation(GpuReading.failed(T0, "NVML_ERROR_GPU_IS_LOST"), Map.of());
    List<GpuStatus> out = GpuClassifier.classify(
        obs, List.of(device(0), device(1, 700)), Map.of(uuid(1), holder), List.of(holder));

    assertEquals(2, out.size());
    assertTrue(out.stream().allMatch(g -> g.state() == GpuState.UNKNOWN));
    assertNull(out.get(0).ownerJobId());
    assertEquals(7L, out.get(1).ownerJobId());
    assertTrue(out.get(0).detail().contains("NVML_ERROR_GPU_IS_LOST"), out.get(0).detail());
  }

  @Test
  void failedReadingWithNoEarlierReadingShowsNoGpus() {
    var obs = new GpuObservation(GpuReading.failed(T0, "libnvidia-ml.so.1 not found"), Map.of());
    assertTrue(GpuClassifier.classify(obs, List.of(), Map.of(), List.of()).isEmpty());
  }

  @Test
  void deviceErrorMakesThatGpuUnknownAndLeavesTheOthersAlone() {
    var broken = DeviceReading.failed(0, uuid(0), "NVML_ERROR_UNKNOWN");
    List<GpuStatus> out = classify(List.of(broken, device(1)), Map.of());

    assertEquals(GpuState.UNKNOWN, out.get(0).state());
    assertTrue(out.get(0).detail().contains("NVML_ERROR_UNKNOWN"));
    assertEquals(GpuState.FREE, out.get(1).state());
  }

  @Test
  void deviceErrorOnReservedGpuIsUnknownWithItsOwner() {
    Job holder = holding(3, JobState.RUNNING, 0);
    GpuStatus g = one(DeviceReading.failed(0, uuid(0), "timeout"), Map.of(), holder);
    assertEquals(GpuState.UNKNOWN, g.state());
    assertEquals(3L, g.ownerJobId());
  }

  @Test
  void deviceErrorWinsOverTheProcessesItLists() {
    var d = new DeviceReading(0, uuid(0), "x", 0, 0, List.of(new DeviceReading.GpuProcess(300, 1)), "partial read");
    Job holder = holding(3, JobState.RUNNING, 0);
    assertEquals(GpuState.UNKNOWN, one(d, Map.of(300L, inJob(300, 3)), holder).state());
  }

  @Test
  void foreignProcessOnReservedGpuMakesItUnknown() {
    Job holder = holding(4, JobState.RUNNING, 0);
    GpuStatus g = one(device(0, 400, 999), Map.of(400L, inJob(400, 4), 999L, stranger(999)), holder);
    assertEquals(GpuState.UNKNOWN, g.state());
    assertEquals(4L, g.ownerJobId());
    assertTrue(g.detail().contains("999"), g.detail());
    assertFalse(g.detail().contains("400"), g.detail());
  }

  @Test
  void ghostPidOnReservedGpuIsNeverOwned() {
    Job holder = holding(4, JobState.RUNNING, 0);
    GpuStatus g = one(device(0, 4242), Map.of(), holder);
    assertEquals(GpuState.UNKNOWN, g.state());
    assertEquals(4L, g.ownerJobId());
  }

  @Test
  void processInJobsSessionKeepsGpuRunning() {
    Job holder = holding(4, JobState.RUNNING, 0);
    var facts = new ProcessFacts(401, 400, 9999, null);
    assertEquals(GpuState.RUNNING, one(device(0, 401), Map.of(401L, facts), holder).state());
  }

  @Test
  void processInJobsProcessGroupKeepsGpuRunning() {
    Job holder = holding(4, JobState.RUNNING, 0);
    var facts = new ProcessFacts(401, 9999, 400, null);
    assertEquals(GpuState.RUNNING, one(device(0, 401), Map.of(401L, facts), holder).state());
  }

  @Test
  void setsidChildCarryingTheJobTagKeepsGpuRunning() {
    Job holder = holding(4, JobState.RUNNING, 0);
    var detached = new ProcessFacts(555, 555, 555, tag(4));
    GpuStatus g = one(device(0, 555), Map.of(555L, detached), holder);
    assertEquals(GpuState.RUNNING, g.state());
    assertEquals(4L, g.ownerJobId());
    assertNull(g.detail());
  }

  @Test
  void processCarryingAnotherJobsTagIsForeign() {
    Job holder = holding(4, JobState.RUNNING, 0);
    var other = new ProcessFacts(555, 555, 555, tag(5));
    assertEquals(GpuState.UNKNOWN, one(device(0, 555), Map.of(555L, other), holder).state());
  }

  @Test
  void jobWithoutTagDoesNotOwnUntaggedProcesses() {
    Job j = holding(4, JobState.STARTING, 0);
    Job untagged = new Job(j.id(), j.spec(), j.state(), j.submitTime(), j.startTime(), null, j.gpus(), null, null,
        j.logPath(), null, null, null);
    assertEquals(GpuState.UNKNOWN, one(device(0, 555), Map.of(555L, stranger(555)), untagged).state());
  }

  @Test
  void startingJobsGpuIsReserved() {
    GpuStatus g = one(device(0), Map.of(), holding(2, JobState.STARTING, 0));
    assertEquals(GpuState.RESERVED, g.state());
    assertEquals(2L, g.ownerJobId());
  }

  @Test
  void startingJobsTaggedProcessKeepsGpuReserved() {
    var facts = new ProcessFacts(777, 777, 777, tag(2));
    assertEquals(GpuState.RESERVED, one(device(0, 777), Map.of(777L, facts), holding(2, JobState.STARTING, 0)).state());
  }

  @Test
  void startingJobDoesNotOwnAnUntaggedProcess() {
    GpuStatus g = one(device(0, 777), Map.of(777L, stranger(777)), holding(2, JobState.STARTING, 0));
    assertEquals(GpuState.UNKNOWN, g.state());
  }

  @Test
  void reservedGpuWithNoProcessesIsNeverFree() {
    assertEquals(GpuState.RUNNING, one(device(0), Map.of(), holding(1, JobState.RUNNING, 0)).state());
    assertEquals(GpuState.RUNNING, one(device(0), Map.of(), holding(1, JobState.CANCELLING, 0)).state());
    assertEquals(GpuState.RESERVED, one(device(0), Map.of(), holding(1, JobState.STARTING, 0)).state());
  }

  @Test
  void cancellingJobsOwnProcessKeepsGpuRunning() {
    Job holder = holding(6, JobState.CANCELLING, 0);
    assertEquals(GpuState.RUNNING, one(device(0, 600), Map.of(600L, inJob(600, 6)), holder).state());
  }

  @Test
  void orphanedHolderMakesGpuUnknownEvenWithItsOwnProcesses() {
    Job orphan = holding(8, JobState.ORPHANED, 0, 1);
    List<GpuStatus> out = classify(List.of(device(0), device(1, 800)), Map.of(800L, inJob(800, 8)), orphan);
    for (GpuStatus g : out) {
      assertEquals(GpuState.UNKNOWN, g.state());
      assertEquals(8L, g.ownerJobId());
    }
  }

  @Test
  void externalProcessKeepsGpuOffLimits() {
    GpuStatus g = one(device(0, 999), Map.of(999L, stranger(999)));
    assertEquals(GpuState.EXTERNAL, g.state());
    assertNull(g.ownerJobId());
    assertTrue(g.detail().contains("999"));
  }

  @Test
  void ghostPidOnUnreservedGpuIsExternal() {
    GpuStatus g = one(device(0, 31337), Map.of());
    assertEquals(GpuState.EXTERNAL, g.state());
    assertTrue(g.detail().contains("not visible in /proc"), g.detail());
  }

  @Test
  void jobProcessStrayingOntoAGpuItWasNotGivenIsExternal() {
    Job j = holding(5, JobState.RUNNING, 0);
    List<GpuStatus> out = classify(List.of(device(0, 500), device(1, 501)),
        Map.of(500L, inJob(500, 5), 501L, inJob(501, 5)), j);
    assertEquals(GpuState.RUNNING, out.get(0).state());
    assertEquals(GpuState.EXTERNAL, out.get(1).state());
    assertNull(out.get(1).ownerJobId());
    assertTrue(out.get(1).detail().contains("job 5"), out.get(1).detail());
  }

  @Test
  void jobProcessStrayingOntoAnotherJobsGpuMakesItUnknown() {
    Job a = holding(5, JobState.RUNNING, 0);
    Job b = holding(6, JobState.RUNNING, 1);
    List<GpuStatus> out = classify(List.of(device(0, 500), device(1, 600, 501)),
        Map.of(500L, inJob(500, 5), 501L, inJob(501, 5), 600L, inJob(600, 6)), a, b);
    assertEquals(GpuState.RUNNING, out.get(0).state());
    assertEquals(GpuState.UNKNOWN, out.get(1).state());
    assertEquals(6L, out.get(1).ownerJobId());
  }

  @Test
  void idleUnreservedGpuIsFree() {
    GpuStatus g = one(device(3), Map.of());
    assertEquals(GpuState.FREE, g.state());
    assertNull(g.ownerJobId());
    assertNull(g.detail());
  }

  @Test
  void usedMemoryWithoutProcessesIsNoOwnershipSignal() {
    var busyLooking = new DeviceReading(0, uuid(0), "x", 80 * GIB, 79 * GIB, List.of(), null);
    assertEquals(GpuState.FREE, one(busyLooking, Map.of()).state());
  }

  @Test
  void statusCarriesTheDevicesIdentityProcessesAndMemory() {
    DeviceReading d = device(2, 999);
    GpuStatus g = one(d, Map.of());
    assertEquals(2, g.index());
    assertEquals(uuid(2), g.uuid());
    assertEquals(d.name(), g.name());
    assertEquals(d.processes(), g.processes());
    assertEquals(d.totalBytes(), g.totalBytes());
    assertEquals(d.usedBytes(), g.usedBytes());
  }

  @Test
  void everyDeviceOfTheReadingIsClassifiedInOrder() {
    List<GpuStatus> out = classify(List.of(device(0), device(1), device(2)), Map.of(), holding(1, JobState.RUNNING, 1));
    assertEquals(List.of(0, 1, 2), out.stream().map(GpuStatus::index).toList());
    assertEquals(List.of(GpuState.FREE, GpuState.RUNNING, GpuState.FREE), out.stream().map(GpuStatus::state).toList());
  }

  // ---- machine-wide leases

  private static final LeaseHolder.Instance SELF = new LeaseHolder.Instance(1000, "me", "/home/me/.local/share/gq");
  private static final LeaseHolder.Instance ALICE = new LeaseHolder.Instance(1001, "alice", "/home/alice/.local/share/gq");

  private static GpuStatus withLease(GpuLease lease, Job... jobs) {
    Map<String, Job> reservations = new HashMap<>();
    for (Job j : jobs) for (var s : j.gpus()) reservations.put(s.uuid(), j);
    var obs = new GpuObservation(new GpuReading(T0, List.of(device(0)), null), Map.of(), Map.of(uuid(0), lease), SELF);
    return GpuClassifier.classify(obs, List.of(), reservations, Arrays.asList(jobs)).get(0);
  }

  @Test
  void aGpuAnotherUsersGqHoldsIsExternalAndNamesTheHolderThoughNoProcessShowsYet() {
    GpuStatus g = withLease(GpuLease.held(new LeaseHolder(ALICE, 12)));
    assertEquals(GpuState.EXTERNAL, g.state());
    assertEquals("alice's job 12", g.heldBy());
    assertTrue(g.detail().contains("alice's job 12"), g.detail());
  }

  @Test
  void aLeaseWhoseHolderCannotBeReadStillKeepsTheGpu() {
    GpuStatus g = withLease(GpuLease.held(null));
    assertEquals(GpuState.EXTERNAL, g.state());
    assertNotNull(g.heldBy());
  }

  @Test
  void aLeaseThatCannotBeCheckedMakesTheGpuUnknown() {
    GpuStatus g = withLease(GpuLease.unreadable("/run/lock/gq: permission denied"));
    assertEquals(GpuState.UNKNOWN, g.state());
    assertTrue(g.detail().contains("permission denied"), g.detail());
  }

  @Test
  void aLeaseNameTakenByAFileThatIsNoLeaseKeepsTheGpuOutsideNamingItsOwnerNotUnknown() {
    GpuStatus g = withLease(LeaseRules.closed("/run/lock/gq/GPU-0.lease", "bob", 0600));
    assertEquals(GpuState.EXTERNAL, g.state());
    assertEquals("a file at its lease", g.heldBy());
    assertTrue(g.detail().contains("bob's and closed to this user"), g.detail());
    assertEquals(GpuState.UNKNOWN, withLease(LeaseRules.closed("/l", "bob", 0600), holding(7, JobState.STARTING, 0)).state());
  }

  @Test
  void aMissingLeaseInACheckedObservationCountsAsUnreadable() {
    var obs = new GpuObservation(new GpuReading(T0, List.of(device(0)), null), Map.of(), Map.of(), SELF);
    assertEquals(GpuState.UNKNOWN, GpuClassifier.classify(obs, List.of(), Map.of(), List.of()).get(0).state());
  }

  @Test
  void theReservingJobsOwnLeaseIsWhatARunningJobLooksLike() {
    Job j = holding(7, JobState.RUNNING, 0);
    GpuStatus g = withLease(GpuLease.held(new LeaseHolder(SELF, 7)), j);
    assertEquals(GpuState.RUNNING, g.state());
    assertNull(g.heldBy());
  }

  @Test
  void aReservedGpuWhoseLeaseAnotherGqHoldsIsUnknown() {
    Job j = holding(7, JobState.STARTING, 0);
    GpuStatus g = withLease(GpuLease.held(new LeaseHolder(ALICE, 12)), j);
    assertEquals(GpuState.UNKNOWN, g.state());
    assertEquals(7L, g.ownerJobId());
    assertTrue(g.detail().contains("alice's job 12"), g.detail());
  }

  @Test
  void aLeaseStillHeldByAnEndedJobOfThisGqKeepsTheGpuFromTheNextJob() {
    GpuStatus g = withLease(GpuLease.held(new LeaseHolder(SELF, 5)));
    assertEquals(GpuState.EXTERNAL, g.state());
    assertEquals("what job 5 left running", g.heldBy());
    Job other = holding(8, JobState.STARTING, 0);
    assertEquals(GpuState.UNKNOWN, withLease(GpuLease.held(new LeaseHolder(SELF, 5)), other).state());
  }

  @Test
  void theSameUsersOtherGqIsAnotherHolder() {
    var mine = new LeaseHolder(new LeaseHolder.Instance(1000, "me", "/scratch/gq"), 3);
    GpuStatus g = withLease(GpuLease.held(mine));
    assertEquals(GpuState.EXTERNAL, g.state());
    assertEquals("job 3 of the gq in /scratch/gq", g.heldBy());
  }

  @Test
  void aFreeLeaseLeavesAnIdleGpuFree() {
    assertEquals(GpuState.FREE, withLease(GpuLease.FREE).state());
  }

  @Test
  void theWaitReasonNamesTheOtherHolder() {
    GpuStatus g = withLease(GpuLease.held(new LeaseHolder(ALICE, 12)));
    assertEquals("needs 1 GPU, 0 free (GPU 0: alice's job 12)", Allocator.busy(1, 0, List.of(g)));
  }
}
