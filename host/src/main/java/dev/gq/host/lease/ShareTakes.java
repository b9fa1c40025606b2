package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import dev.gq.core.lease.GpuLeases.Taken;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseRules;
import dev.gq.core.lease.LeaseShare;
import dev.gq.core.lease.LockWitness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * Takes a share of one GPU's lease: under the GPU's share lock (held for the few milliseconds of the
 * check), the lease file locked shared, the live shares listed, {@link LeaseRules} asked whether
 * the new one fits, and a free share file locked alone with the share's line written into it
 * before the share lock goes. Used by {@link LeaseFiles#takeShares}.
 */
final class ShareTakes {
  /** How long a share taker waits for another taker's check-and-add on the same GPU (1 ms each). */
  private static final int SHARE_LOCK_TRIES = 1000;

  private final Path dir;
  private final LeaseDirectory directory;
  private final LeaseReads reads;
  private final LockFiles locks;

  ShareTakes(Path dir, LeaseDirectory directory, LeaseReads reads, LockFiles locks) {
    this.dir = dir;
    this.directory = directory;
    this.reads = reads;
    this.locks = locks;
  }

  /**
   * Takes a share of {@code uuid} under its share lock: the lease file locked shared, and a share
   * file locked alone holding {@code holder}'s line; their descriptors, in that order.
   */
  List<Integer> shareOne(String uuid, LeaseHolder holder, long mib, Long totalMiB, long headroomMiB,
      int perGpuCap) throws Taken {
    if (totalMiB == null || totalMiB < 1)
      throw new Taken("GPU " + uuid + "'s memory is not known, so no share of it can be taken");
    Path lockFile = directory.shareLock(uuid);
    int lock;
    try {
      lock = locks.open(lockFile).fd();
    } catch (Taken e) {
      String why = directory.unwritable(); // its lease file may be there, but no share file can be made
      throw why == null ? e : new Taken("cannot take a share of GPU " + uuid + ": " + why);
    }
    try {
      for (int i = 0; !tryLock(lock, LOCK_EX); i++) {
        if (i >= SHARE_LOCK_TRIES)
          throw new Taken("GPU " + uuid + "'s share lock " + lockFile + " stayed held by another process; no share of it can be taken now");
        sleepBriefly();
      }
      locks.confirm(lock, lockFile);
      int fd = locks.open(directory.file(uuid)).fd();
      try {
        if (!tryLock(fd, LOCK_SH)) {
          LeaseHolder h = LockWitness.attribute(holder(fd).orElse(null), reads.owners().witness(fd));
          String who = h == null ? "a gq job whose lease does not say who it is" : h.describe(holder.instance());
          throw new Taken("GPU " + uuid + " is held by " + who + " alone, so it cannot be shared");
        }
        List<LeaseShare> live;
        try {
          live = reads.liveShares(uuid, directory.names(), reads.owners());
        } catch (LeaseReads.Unclear e) {
          throw new Taken("cannot take a share of GPU " + uuid + ": " + e.lease.error());
        } catch (IOException e) {
          throw new Taken("cannot list the lease directory " + dir + ": " + e.getMessage());
        }
        String no = LeaseRules.shareRefusal(uuid, live, totalMiB, mib, headroomMiB, perGpuCap, holder.instance());
        if (no != null) throw new Taken(no);
        return List.of(fd, claimShareFile(uuid, new LeaseShare(holder, mib, Math.max(0, perGpuCap))));
      } catch (Taken | RuntimeException e) {
        closeQuietly(fd);
        throw e;
      }
    } catch (LastErrorException e) {
      throw new Taken("cannot take a share of GPU " + uuid + ": " + C_LIB.strerror(e.getErrorCode()));
    } finally {
      closeQuietly(lock);
    }
  }

  /**
   * Locks the first free share file of {@code uuid} this user can write and writes {@code share}'s
   * line into it; its descriptor. A share file held by another share, one closed to this user, or
   * a name taken by something that is no file and that this user may not remove is passed over.
   */
  private int claimShareFile(String uuid, LeaseShare share) throws Taken {
    byte[] line = share.line().getBytes(StandardCharsets.UTF_8);
    String last = null;
    for (int n = 0; n < LeaseReads.MAX_SHARES; n++) {
      LockFiles.Opened o;
      try {
        o = locks.open(directory.shareFile(uuid, n));
      } catch (Taken e) {
        last = e.getMessage();
        continue;
      }
      try {
        if (o.writable() && tryLock(o.fd(), LOCK_EX)) {
          locks.confirm(o.fd(), directory.shareFile(uuid, n));
          C_LIB.ftruncate(o.fd(), 0);
          C_LIB.pwrite(o.fd(), line, line.length, 0);
          return o.fd();
        }
      } catch (LastErrorException e) {
        last = directory.shareFile(uuid, n) + ": " + C_LIB.strerror(e.getErrorCode());
      } catch (Taken e) {
        last = e.getMessage();
      }
      closeQuietly(o.fd());
    }
    throw new Taken("GPU " + uuid + " has no free share file of " + LeaseReads.MAX_SHARES + (last == null ? "" : " (last: " + last + ")"));
  }
}
