package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseRules;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine-wide GPU leases as files: one per GPU UUID in a directory every gq on the machine
 * shares (sticky and writable by all, like /tmp), each locked with flock(2) by the job that holds
 * the GPU. The lock belongs to the open file description: the daemon takes it, the job shim and
 * every process of the job inherit it, and the kernel drops it when the last of them has ended or
 * closed it, whichever daemon is alive. Whoever takes a lease writes its holder's line into the
 * file for others to show; gq never deletes a lease file (a new file under the old name would be a
 * second lock). Readers test with a shared lock, which the taker retries past. The libc calls are
 * {@link LeaseLibc}'s; where the files live and whether that place can be trusted, {@link LeaseDirectory}'s.
 */
public final class LeaseFiles implements GpuLeases {

  /** How long a taker retries past readers' brief shared locks before it calls a lease held. */
  private static final int TAKE_TRIES = 50;

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
    for (String uuid : uuids) {
      GpuLease l = bad != null ? GpuLease.unreadable(bad) : readOne(uuid);
      if (l == null) {
        if (missing == null) missing = missing();
        l = missing;
      }
      out.put(uuid, l);
    }
    return out;
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
      for (int i = 0; !tryLock(fd, LOCK_EX); i++) {
        if (i >= TAKE_TRIES) {
          String who = holder(fd).map(h -> h.describe(holder.instance())).orElse("another gq job");
          throw new Taken("GPU " + uuid + " was taken by " + who + " just before the launch");
        }
        sleepBriefly();
      }
      if (writable) {
        byte[] line = holder.line().getBytes(StandardCharsets.UTF_8);
        C_LIB.ftruncate(fd, 0);
        C_LIB.pwrite(fd, line, line.length, 0);
      }
      return fd;
    } catch (LastErrorException | java.io.IOException e) {
      closeQuietly(fd);
      String why = e instanceof LastErrorException le ? C_LIB.strerror(le.getErrorCode()) : e.getMessage();
      throw new Taken("cannot take the lease " + file + ": " + why);
    } catch (Taken e) {
      closeQuietly(fd);
      throw e;
    }
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
