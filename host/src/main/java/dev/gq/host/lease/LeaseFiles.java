package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseRules;
import dev.gq.core.lease.LeaseShare;
import dev.gq.core.lease.LockWitness;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
 * file of its own ({@code GPU-….share.N}, N below {@link LeaseReads#MAX_SHARES}) holding its line with the
 * memory it declared. Share files are never deleted either; a free one (unlocked) is reused. A
 * taker checks and adds under the GPU's share lock ({@code GPU-….share-lock}, held for the few
 * milliseconds of the check): it takes LOCK_SH on the lease file (refused when an exclusive lease
 * is held), lists the live shares (share files locked by someone), asks {@link LeaseRules} whether
 * it fits, and locks a free share file and writes its line before it lets the share lock go. The
 * job gets the lease file and its share file as descriptors, so the kernel drops both with its
 * last process, like a lease. Readers take no share lock: they test each share file with a shared
 * lock. The libc calls are {@link LeaseLibc}'s; where the files live and whether that place can be
 * trusted, {@link LeaseDirectory}'s; reading leases is {@link LeaseReads}', opening a file to lock
 * {@link LockFiles}', and the check-and-add of a share {@link ShareTakes}'.
 */
public final class LeaseFiles implements GpuLeases {

  /** How long a taker retries past readers' brief shared locks before it calls a lease held. */
  private static final int TAKE_TRIES = 50;

  private final Path dir;
  private final LeaseDirectory directory;
  private final LeaseReads reads;
  private final LockFiles locks;
  private final ShareTakes shares;

  /** Leases kept in {@code dir}, created (mode 1777) on the first take; their holders as /proc/locks names them. */
  public LeaseFiles(Path dir) {
    this(dir, new LockOwners(Path.of("/proc")));
  }

  LeaseFiles(Path dir, LockOwners owners) {
    this.dir = dir.toAbsolutePath();
    this.directory = new LeaseDirectory(this.dir);
    this.reads = new LeaseReads(this.dir, directory, owners);
    this.locks = new LockFiles(directory, reads);
    this.shares = new ShareTakes(this.dir, directory, reads, locks);
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
    return reads.read(uuids);
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
    LockFiles.Opened lease = locks.open(file);
    int fd = lease.fd();
    try {
      for (int i = 0; !tryLock(fd, LOCK_EX); i++) {
        if (i >= TAKE_TRIES) throw new Taken(takenBy(uuid, fd, holder.instance()));
        sleepBriefly();
      }
      locks.confirm(fd, file); // still the file at its name, with no other: only then is it the lease
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
      LeaseHolder h = LockWitness.attribute(holder(fd).orElse(null), reads.owners().witness(fd));
      String who = h == null ? "another gq job" : h.describe(self);
      return "GPU " + uuid + " was taken by " + who + " just before the launch";
    }
    unlock(fd); // no lease held alone: shares hold it
    try {
      List<LeaseShare> live = reads.liveShares(uuid, directory.names(), reads.owners());
      if (!live.isEmpty())
        return "GPU " + uuid + " is shared by " + LeaseRules.list(live, self) + ", so it cannot be taken alone";
    } catch (LeaseReads.Unclear | IOException e) {
      // named below without its shares
    }
    return "GPU " + uuid + " was taken for sharing just before the launch";
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
      for (String uuid : uuids) fds.addAll(shares.shareOne(uuid, holder, mib, totalMiB.get(uuid), headroomMiB, perGpuCap));
    } catch (Taken | RuntimeException e) {
      fds.forEach(LeaseLibc::closeQuietly);
      throw e;
    }
    return new FileHeld(fds);
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
