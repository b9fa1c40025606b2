package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseRules;
import dev.gq.core.lease.LeaseShare;
import dev.gq.core.lease.LockWitness;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the machine-wide leases without taking any: a lease file locked by someone is HELD (its
 * line names the holder), one unlocked is FREE unless share files of its GPU are locked (SHARED,
 * each with its line), and a name that cannot be trusted or read is judged by {@link LeaseRules}
 * (BLOCKED or UNREADABLE, saying why). Each file is tested with a shared lock and closed at once.
 * Used by {@link LeaseFiles} for reads and for saying why a take was refused.
 */
final class LeaseReads {
  /** The most shares one GPU can have at once: share files {@code .share.0} to {@code .share.63}. */
  static final int MAX_SHARES = 64;

  private final Path dir;
  private final LeaseDirectory directory;
  private final LockOwners owners;

  LeaseReads(Path dir, LeaseDirectory directory, LockOwners owners) {
    this.dir = dir;
    this.directory = directory;
    this.owners = owners;
  }

  /** A read of /proc/locks, to learn from the kernel who holds the files read with it. */
  LockOwners.Reading owners() {
    return owners.reading();
  }

  /** The lease of each of {@code uuids}: FREE, HELD (with its holder's line), SHARED, BLOCKED or UNREADABLE. */
  Map<String, GpuLease> read(List<String> uuids) {
    Map<String, GpuLease> out = new HashMap<>();
    String bad = Files.exists(dir, LinkOption.NOFOLLOW_LINKS) ? directory.check() : null;
    GpuLease missing = null; // what a missing lease file means, asked once
    Set<String> names = null; // the directory's names, listed once when a lease reads free
    LockOwners.Reading kernel = owners.reading();
    for (String uuid : uuids) {
      GpuLease l = bad != null ? GpuLease.unreadable(bad) : readOne(uuid, kernel);
      if (l == null) {
        if (missing == null) missing = missing();
        l = missing;
      }
      if (l.state() == GpuLease.State.FREE) {
        try {
          if (names == null) names = directory.names();
          List<LeaseShare> live = liveShares(uuid, names, kernel);
          if (!live.isEmpty()) l = GpuLease.shared(live);
        } catch (Unclear e) {
          l = e.lease;
        } catch (IOException e) {
          l = GpuLease.unreadable("cannot list the lease directory " + dir + ": " + e.getMessage());
        }
      }
      out.put(uuid, l);
    }
    return out;
  }

  /** A share file that makes its GPU's lease BLOCKED (closed to this user) or UNREADABLE. */
  static final class Unclear extends Exception {
    final GpuLease lease;

    Unclear(GpuLease lease) {
      super(lease.error(), null, false, false);
      this.lease = lease;
    }
  }

  /**
   * The live shares of {@code uuid}: its share files among {@code names} that someone holds locked,
   * each with the line it holds ({@link LeaseShare#unknown} when that cannot be read). A name that
   * is no regular file holds no share and is passed over. Each holder is as the kernel names it
   * ({@code kernel}), never only as its line claims.
   */
  List<LeaseShare> liveShares(String uuid, Set<String> names, LockOwners.Reading kernel) throws Unclear {
    List<LeaseShare> out = new ArrayList<>();
    // the GPU watcher asks every second for every GPU: most have no share file at all
    String first = directory.shareFile(uuid, 0).getFileName().toString();
    String prefix = first.substring(0, first.length() - 1);
    if (names.stream().noneMatch(name -> name.startsWith(prefix))) return out;
    for (int n = 0; n < MAX_SHARES; n++) {
      Path file = directory.shareFile(uuid, n);
      if (!names.contains(file.getFileName().toString())) continue;
      LeaseShare s = liveShare(file, kernel);
      if (s != null) out.add(s);
    }
    return out;
  }

  private LeaseShare liveShare(Path file, LockOwners.Reading kernel) throws Unclear {
    LeaseDirectory.Spot spot;
    try {
      spot = LeaseDirectory.spot(file);
    } catch (IOException e) {
      throw new Unclear(GpuLease.unreadable(file + ": " + e.getMessage()));
    }
    if (spot == null || !spot.regular()) return null; // no lock can be held through a link or a pipe
    int fd;
    try {
      fd = C_LIB.open(file.toString(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == ENOENT || e.getErrorCode() == ELOOP) return null;
      if (e.getErrorCode() == EACCES) throw new Unclear(LeaseRules.closedShare(file.toString(), spot.owner(), spot.mode()));
      throw new Unclear(GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode())));
    }
    try {
      if (!LeaseDirectory.regular(fd)) return null;
      if (tryLock(fd, LOCK_SH)) {
        unlock(fd);
        return null; // left by a share that ended
      }
      return share(fd).orElse(LeaseShare.unknown()).attributed(kernel.witness(fd));
    } catch (LastErrorException e) {
      throw new Unclear(GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode())));
    } catch (IOException e) {
      throw new Unclear(GpuLease.unreadable(file + ": " + e.getMessage()));
    } finally {
      closeQuietly(fd);
    }
  }

  /** A lease file that is missing: FREE when this user could make it, else UNREADABLE saying why. */
  private GpuLease missing() {
    String why = directory.unwritable();
    return why == null ? GpuLease.FREE : GpuLease.unreadable(why);
  }

  /**
   * The lease of {@code uuid}; null when its file is missing (FREE, if this user could make it).
   * Only a regular file is a lease, held while locked, by whom the kernel says ({@code kernel});
   * anything else at its name is judged by {@link LeaseRules}.
   */
  private GpuLease readOne(String uuid, LockOwners.Reading kernel) {
    Path file = directory.file(uuid);
    LeaseDirectory.Spot spot;
    try {
      spot = LeaseDirectory.spot(file);
    } catch (IOException e) {
      return GpuLease.unreadable(file + ": " + e.getMessage());
    }
    if (spot == null) return null; // never taken on this machine since boot
    if (!spot.regular()) return notAFile(file, spot);
    int fd;
    try {
      fd = C_LIB.open(file.toString(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == ENOENT) return null;
      if (e.getErrorCode() == EACCES) return LeaseRules.closed(file.toString(), spot.owner(), spot.mode());
      return GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode()));
    }
    try {
      if (!LeaseDirectory.regular(fd)) return GpuLease.unreadable(file + " changed while it was read");
      if (tryLock(fd, LOCK_SH)) {
        unlock(fd);
        return spot.lease() ? GpuLease.FREE : notAFile(file, spot); // hard-linked: a lease only while locked
      }
      return GpuLease.held(LockWitness.attribute(holder(fd).orElse(null), kernel.witness(fd)));
    } catch (LastErrorException e) {
      return GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode()));
    } catch (IOException e) {
      return GpuLease.unreadable(file + ": " + e.getMessage());
    } finally {
      closeQuietly(fd);
    }
  }

  /** What a name in the lease directory that is no regular file means for its GPU's lease ({@link LeaseRules}). */
  GpuLease notAFile(Path file, LeaseDirectory.Spot spot) {
    return LeaseRules.notAFile(file.toString(), spot.kind(), spot.owner(), C_LIB.geteuid(), spot.uid(), directory.ownerUid());
  }
}
