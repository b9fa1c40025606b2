package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseRules;
import dev.gq.core.lease.LeaseShare;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The machine-wide GPU leases as files: one per GPU UUID in a directory every gq on the machine
 * shares (sticky and writable by all, like /tmp), each locked with flock(2) by the job that holds
 * the GPU. The lock belongs to the open file description: the daemon takes it, the job shim and
 * every process of the job inherit it, and the kernel drops it when the last of them has ended or
 * closed it, whichever daemon is alive. Whoever takes a lease writes its holder's line into the
 * file for others to show; gq never deletes a lease file (a new file under the old name would be a
 * second lock). Readers test with a shared lock, which the taker retries past.
 *
 * <p>Shares: a shared job holds a shared lock (LOCK_SH) on the GPU's lease file, which keeps every
 * exclusive take (LOCK_EX) off it and lets other shares join, and an exclusive lock on one share
 * file of its own ({@code GPU-….share.N}, N below {@link #MAX_SHARES}) holding its line with the
 * memory it declared. Share files are never deleted either; a free one (unlocked) is reused. A
 * taker checks and adds under the GPU's share lock ({@code GPU-….share-lock}, held for the few
 * milliseconds of the check): it takes LOCK_SH on the lease file (refused when an exclusive lease
 * is held), lists the live shares (share files locked by someone), asks {@link LeaseRules} whether
 * it fits, and locks a free share file and writes its line before it lets the share lock go. The
 * job gets the lease file and its share file as descriptors, so the kernel drops both with its
 * last process, like a lease. Readers take no share lock: they test each share file with a shared
 * lock. The libc calls are {@link LeaseLibc}'s; where the files live and whether that place can be
 * trusted, {@link LeaseDirectory}'s.
 */
public final class LeaseFiles implements GpuLeases {

  /** How long a taker retries past readers' brief shared locks before it calls a lease held. */
  private static final int TAKE_TRIES = 50;

  /** How long a share taker waits for another taker's check-and-add on the same GPU (1 ms each). */
  private static final int SHARE_LOCK_TRIES = 1000;

  /** The most shares one GPU can have at once: share files {@code .share.0} to {@code .share.63}. */
  static final int MAX_SHARES = 64;

  private final Path dir;
  private final LeaseDirectory directory;

  /** Leases kept in {@code dir}, created (mode 1777) on the first take. */
  public LeaseFiles(Path dir) {
    this.dir = dir.toAbsolutePath();
    this.directory = new LeaseDirectory(this.dir);
  }

  /**
   * The lease directory for this environment: GQ_LEASE_DIR when set; for fake GPUs, {@code leases}
   * beside them (gq instances that share fake GPUs share their leases); else /run/lock/gq, or
   * /tmp/gq-leases where /run/lock does not exist.
   */
  public static Path directory(Map<String, String> env) {
    String set = env.get("GQ_LEASE_DIR");
    if (set != null && !set.isBlank()) return Path.of(set);
    String fake = env.get("GQ_FAKE_NVML");
    if (fake != null && !fake.isBlank()) return Path.of(fake, "leases");
    return Files.isDirectory(Path.of("/run/lock")) ? Path.of("/run/lock/gq") : Path.of("/tmp/gq-leases");
  }

  public Path dir() {
    return dir;
  }

  /** The lease file of {@code uuid}. */
  Path file(String uuid) {
    return directory.file(uuid);
  }

  @Override
  public Map<String, GpuLease> read(List<String> uuids) {
    Map<String, GpuLease> out = new HashMap<>();
    String bad = Files.exists(dir, LinkOption.NOFOLLOW_LINKS) ? directory.check() : null;
    GpuLease missing = null; // what a missing lease file means, asked once
    Set<String> names = null; // the directory's names, listed once when a lease reads free
    for (String uuid : uuids) {
      GpuLease l = bad != null ? GpuLease.unreadable(bad) : readOne(uuid);
      if (l == null) {
        if (missing == null) missing = missing();
        l = missing;
      }
      if (l.state() == GpuLease.State.FREE) {
        try {
          if (names == null) names = directory.names();
          List<LeaseShare> live = liveShares(uuid, names);
          if (!live.isEmpty()) l = GpuLease.shared(live);
        } catch (Unclear e) {
          l = e.lease;
        } catch (java.io.IOException e) {
          l = GpuLease.unreadable("cannot list the lease directory " + dir + ": " + e.getMessage());
        }
      }
      out.put(uuid, l);
    }
    return out;
  }

  /** A share file that makes its GPU's lease BLOCKED (closed to this user) or UNREADABLE. */
  private static final class Unclear extends Exception {
    final GpuLease lease;

    Unclear(GpuLease lease) {
      super(lease.error(), null, false, false);
      this.lease = lease;
    }
  }

  /**
   * The live shares of {@code uuid}: its share files among {@code names} that someone holds locked,
   * each with the line it holds ({@link LeaseShare#unknown} when that cannot be read). A name that
   * is no regular file holds no share and is passed over.
   */
  private List<LeaseShare> liveShares(String uuid, Set<String> names) throws Unclear {
    List<LeaseShare> out = new ArrayList<>();
    // the GPU watcher asks every second for every GPU: most have no share file at all
    String first = directory.shareFile(uuid, 0).getFileName().toString();
    String prefix = first.substring(0, first.length() - 1);
    if (names.stream().noneMatch(name -> name.startsWith(prefix))) return out;
    for (int n = 0; n < MAX_SHARES; n++) {
      Path file = directory.shareFile(uuid, n);
      if (!names.contains(file.getFileName().toString())) continue;
      LeaseShare s = liveShare(file);
      if (s != null) out.add(s);
    }
    return out;
  }

  private LeaseShare liveShare(Path file) throws Unclear {
    LeaseDirectory.Spot spot;
    try {
      spot = LeaseDirectory.spot(file);
    } catch (java.io.IOException e) {
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
      return share(fd).orElse(LeaseShare.unknown());
    } catch (LastErrorException e) {
      throw new Unclear(GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode())));
    } catch (java.io.IOException e) {
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
   * Only a regular file is a lease, held while locked; anything else at its name is judged by
   * {@link LeaseRules}.
   */
  private GpuLease readOne(String uuid) {
    Path file = file(uuid);
    LeaseDirectory.Spot spot;
    try {
      spot = LeaseDirectory.spot(file);
    } catch (java.io.IOException e) {
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
        return GpuLease.FREE;
      }
      return GpuLease.held(holder(fd).orElse(null));
    } catch (LastErrorException e) {
      return GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode()));
    } catch (java.io.IOException e) {
      return GpuLease.unreadable(file + ": " + e.getMessage());
    } finally {
      closeQuietly(fd);
    }
  }

  private GpuLease notAFile(Path file, LeaseDirectory.Spot spot) {
    return LeaseRules.notAFile(file.toString(), spot.kind(), spot.owner(), C_LIB.geteuid(), spot.uid(), directory.ownerUid());
  }

  @Override
  public Held take(List<String> uuids, LeaseHolder holder) throws Taken {
    if (uuids.isEmpty()) return new FileHeld(List.of()); // a CPU-only job needs no lease, nor the directory
    String bad = directory.ensure();
    if (bad != null) throw new Taken("cannot take the GPU's machine-wide lease: " + bad);
    List<Integer> fds = new ArrayList<>();
    try {
      for (String uuid : uuids) fds.add(takeOne(uuid, holder));
    } catch (Taken | RuntimeException e) {
      fds.forEach(LeaseLibc::closeQuietly);
      throw e;
    }
    return new FileHeld(fds);
  }

  private int takeOne(String uuid, LeaseHolder holder) throws Taken {
    Path file = file(uuid);
    Opened lease = openLease(file);
    int fd = lease.fd();
    try {
      for (int i = 0; !tryLock(fd, LOCK_EX); i++) {
        if (i >= TAKE_TRIES) throw new Taken(takenBy(uuid, fd, holder.instance()));
        sleepBriefly();
      }
      if (lease.writable()) {
        byte[] line = holder.line().getBytes(StandardCharsets.UTF_8);
        C_LIB.ftruncate(fd, 0);
        C_LIB.pwrite(fd, line, line.length, 0);
      }
      return fd;
    } catch (LastErrorException e) {
      closeQuietly(fd);
      throw new Taken("cannot take the lease " + file + ": " + C_LIB.strerror(e.getErrorCode()));
    } catch (Taken | RuntimeException e) {
      closeQuietly(fd);
      throw e;
    }
  }

  /** Why the lease of {@code uuid}, open as {@code fd}, cannot be taken alone: its holder, or its shares. */
  private String takenBy(String uuid, int fd, LeaseHolder.Instance self) {
    if (!tryLock(fd, LOCK_SH)) {
      String who = holder(fd).map(h -> h.describe(self)).orElse("another gq job");
      return "GPU " + uuid + " was taken by " + who + " just before the launch";
    }
    unlock(fd); // no lease held alone: shares hold it
    try {
      List<LeaseShare> live = liveShares(uuid, directory.names());
      if (!live.isEmpty())
        return "GPU " + uuid + " is shared by " + LeaseRules.list(live, self) + ", so it cannot be taken alone";
    } catch (Unclear | java.io.IOException e) {
      // named below without its shares
    }
    return "GPU " + uuid + " was taken for sharing just before the launch";
  }

  /** A lease or share file open for locking; {@code writable} false when only its lock can be had, not its line. */
  private record Opened(int fd, boolean writable) {}

  /**
   * Opens the lease or share file {@code file} for locking, never through a link: made (0666) when
   * missing, a planted non-file cleared first where this user may ({@link #clearedSpot}), read-only
   * when this user may not write it, refused when this user cannot open it or it is no regular file.
   */
  private Opened openLease(Path file) throws Taken {
    LeaseDirectory.Spot spot = clearedSpot(file);
    int fd;
    boolean writable = true;
    try {
      fd = openForLock(file);
    } catch (LastErrorException e) {
      if (e.getErrorCode() != EACCES) throw new Taken("cannot open the lease " + file + ": " + C_LIB.strerror(e.getErrorCode()));
      // a lease file another user made without write access for all: it still locks, unnamed
      try {
        fd = C_LIB.open(file.toString(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
        writable = false;
      } catch (LastErrorException e2) {
        if (e2.getErrorCode() == EACCES && spot != null)
          throw new Taken("cannot take the GPU's machine-wide lease: "
              + LeaseRules.closed(file.toString(), spot.owner(), spot.mode()).error());
        throw new Taken("cannot open the lease " + file + ": " + C_LIB.strerror(e2.getErrorCode()));
      }
    }
    try {
      if (!LeaseDirectory.regular(fd)) throw new Taken("the lease " + file + " changed while it was taken");
      return new Opened(fd, writable);
    } catch (java.io.IOException e) {
      closeQuietly(fd);
      throw new Taken("cannot take the lease " + file + ": " + e.getMessage());
    } catch (Taken e) {
      closeQuietly(fd);
      throw e;
    }
  }

  @Override
  public Held takeShares(List<String> uuids, LeaseHolder holder, long mib, Map<String, Long> totalMiB,
      long headroomMiB, int perGpuCap) throws Taken {
    if (mib < 1) throw new IllegalArgumentException("a share declares its memory: " + mib + " MiB");
    if (uuids.isEmpty()) return new FileHeld(List.of());
    String bad = directory.ensure();
    if (bad != null) throw new Taken("cannot take a share of the GPU's machine-wide lease: " + bad);
    List<Integer> fds = new ArrayList<>();
    try {
      for (String uuid : uuids) fds.addAll(shareOne(uuid, holder, mib, totalMiB.get(uuid), headroomMiB, perGpuCap));
    } catch (Taken | RuntimeException e) {
      fds.forEach(LeaseLibc::closeQuietly);
      throw e;
    }
    return new FileHeld(fds);
  }

  /**
   * Takes a share of {@code uuid} under its share lock: the lease file locked shared, and a share
   * file locked alone holding {@code holder}'s line; their descriptors, in that order.
   */
  private List<Integer> shareOne(String uuid, LeaseHolder holder, long mib, Long totalMiB, long headroomMiB,
      int perGpuCap) throws Taken {
    if (totalMiB == null || totalMiB < 1)
      throw new Taken("GPU " + uuid + "'s memory is not known, so no share of it can be taken");
    Path lockFile = directory.shareLock(uuid);
    int lock;
    try {
      lock = openLease(lockFile).fd();
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
      int fd = openLease(file(uuid)).fd();
      try {
        if (!tryLock(fd, LOCK_SH)) {
          String who = holder(fd).map(h -> h.describe(holder.instance())).orElse("a gq job whose lease does not say who it is");
          throw new Taken("GPU " + uuid + " is held by " + who + " alone, so it cannot be shared");
        }
        List<LeaseShare> live;
        try {
          live = liveShares(uuid, directory.names());
        } catch (Unclear e) {
          throw new Taken("cannot take a share of GPU " + uuid + ": " + e.lease.error());
        } catch (java.io.IOException e) {
          throw new Taken("cannot list the lease directory " + dir + ": " + e.getMessage());
        }
        String no = LeaseRules.shareRefusal(uuid, live, totalMiB, mib, headroomMiB, perGpuCap, holder.instance());
        if (no != null) throw new Taken(no);
        return List.of(fd, claimShareFile(uuid, new LeaseShare(holder, mib)));
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
    for (int n = 0; n < MAX_SHARES; n++) {
      Opened o;
      try {
        o = openLease(directory.shareFile(uuid, n));
      } catch (Taken e) {
        last = e.getMessage();
        continue;
      }
      try {
        if (o.writable() && tryLock(o.fd(), LOCK_EX)) {
          C_LIB.ftruncate(o.fd(), 0);
          C_LIB.pwrite(o.fd(), line, line.length, 0);
          return o.fd();
        }
      } catch (LastErrorException e) {
        last = directory.shareFile(uuid, n) + ": " + C_LIB.strerror(e.getErrorCode());
      }
      closeQuietly(o.fd());
    }
    throw new Taken("GPU " + uuid + " has no free share file of " + MAX_SHARES + (last == null ? "" : " (last: " + last + ")"));
  }

  /**
   * What stands at {@code file} before it is taken; a file there that is no lease (not a regular
   * file) removed first when this user may, else refused naming who may ({@link LeaseRules}).
   */
  private LeaseDirectory.Spot clearedSpot(Path file) throws Taken {
    try {
      LeaseDirectory.Spot spot = LeaseDirectory.spot(file);
      if (spot == null || spot.regular()) return spot;
      GpuLease l = notAFile(file, spot);
      if (l.state() != GpuLease.State.FREE) throw new Taken("cannot take the GPU's machine-wide lease: " + l.error());
      try {
        C_LIB.unlink(file.toString()); // never a lease: no lock can be lost with it
      } catch (LastErrorException e) {
        if (e.getErrorCode() != ENOENT)
          throw new Taken("cannot remove " + spot.kind() + " at the lease " + file + ": " + C_LIB.strerror(e.getErrorCode()));
      }
      return null;
    } catch (java.io.IOException e) {
      throw new Taken("cannot read the lease " + file + ": " + e.getMessage());
    }
  }

  /** Leases held by this process until {@link #close}. */
  private static final class FileHeld implements Held {
    private final List<Integer> fds;
    private boolean closed;

    FileHeld(List<Integer> fds) {
      this.fds = List.copyOf(fds);
    }

    @Override
    public List<Integer> fds() {
      return fds;
    }

    @Override
    public synchronized void close() {
      if (closed) return;
      closed = true;
      fds.forEach(LeaseLibc::closeQuietly);
    }
  }
}
