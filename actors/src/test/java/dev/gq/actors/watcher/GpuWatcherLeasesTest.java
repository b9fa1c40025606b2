package dev.gq.actors.watcher;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessTable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An observation reads which lease files the processes on a GPU other gq instances share hold open
 * (a job's processes inherit them), only there, and marks a process whose open files cannot be read
 * with its user.
 */
class GpuWatcherLeasesTest {
  static final LeaseHolder.Instance ME = new LeaseHolder.Instance(1000, "alice", "/d/alice");
  static final LeaseHolder.Instance BOB = new LeaseHolder.Instance(1001, "bob", "/d/bob");

  @TempDir Path dir;

  @Test
  void theLeaseFilesOfProcessesOnASharedGpuAreReadAndHiddenOnesKeepTheirUser() {
    DeviceReading shared = new DeviceReading(0, "GPU-a", "H100", 81920L << 20, 0,
        List.of(new DeviceReading.GpuProcess(11, 1), new DeviceReading.GpuProcess(12, 1), new DeviceReading.GpuProcess(13, 1)),
        null);
    DeviceReading free = new DeviceReading(1, "GPU-b", "H100", 81920L << 20, 0, List.of(new DeviceReading.GpuProcess(21, 1)), null);
    GpuProbe probe = new GpuProbe() {
      @Override
      public GpuReading read() {
        return new GpuReading(Instant.EPOCH, List.of(shared, free), null);
      }

      @Override
      public String describe() {
        return "test";
      }

      @Override
      public boolean fake() {
        return true;
      }
    };
    Map<Long, List<String>> open = Map.of(
        11L, List.of("/dev/null", dir.resolve("GPU-a.lease").toString(), dir.resolve("GPU-a.share.0").toString()),
        12L, List.of(dir.resolve("elsewhere/GPU-a.lease").toString(), "/dev/nvidia0"),
        13L, List.of(),
        21L, List.of(dir.resolve("GPU-b.lease").toString()));
    ProcessTable procs = new ProcessTable() {
      @Override
      public Optional<ProcInfo> info(long pid) {
        return Optional.of(new ProcInfo(pid, 1, pid, pid, 5, 'S', "python"));
      }

      @Override
      public Optional<String> environ(long pid, String name) {
        return Optional.empty();
      }

      @Override
      public List<ProcInfo> all() {
        return List.of();
      }

      @Override
      public String bootId() {
        return "boot";
      }

      @Override
      public List<String> openFiles(long pid) {
        return open.getOrDefault(pid, List.of());
      }

      @Override
      public long uid(long pid) {
        return 1001;
      }
    };
    GpuLeases leases = new GpuLeases() {
      @Override
      public Map<String, GpuLease> read(List<String> uuids) {
        return Map.of("GPU-a", GpuLease.shared(List.of(new LeaseShare(new LeaseHolder(BOB, 3), 20480))), "GPU-b", GpuLease.FREE);
      }

      @Override
      public Held take(List<String> uuids, LeaseHolder holder) throws Taken {
        throw new Taken("not taken here");
      }

      @Override
      public Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB, long headroomMiB,
          int perGpuCap) throws Taken {
        throw new Taken("not taken here");
      }
    };
    var o = GpuWatcher.observe(probe, procs, leases, ME, dir);
    assertEquals(Set.of("GPU-a"), o.facts().get(11L).leases(), "the lease file in the lease directory; a share file is not one");
    assertEquals(-1, o.facts().get(11L).hiddenUid());
    assertEquals(Set.of(), o.facts().get(12L).leases(), "a lease-named file outside the lease directory is no lease");
    assertEquals(-1, o.facts().get(12L).hiddenUid());
    assertEquals(Set.of(), o.facts().get(13L).leases());
    assertEquals(1001, o.facts().get(13L).hiddenUid(), "no open file listed: /proc hid them; its user is kept");
    assertEquals(Set.of(), o.facts().get(21L).leases(), "read only on a GPU other instances share");
  }
}
