package dev.gq.host.lease;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The machine-wide GPU leases as files: one per GPU UUID in a directory every gq on the machine
 * shares (sticky and writable by all, like /tmp), each locked with flock(2) by the job that holds
 * the GPU. The lock belongs to the open file description: the daemon takes it, the job shim and
 * every process of the job inherit it, and the kernel drops it when the last of them has ended or
 * closed it, whichever daemon is alive. Whoever takes a lease writes its holder's line into the
 * file for others to show; gq never deletes a lease file (a new file under the old name would be a
 * second lock). Readers test with a shared lock, which the taker retries past.
 */
public final class LeaseFiles implements GpuLeases {

  // open(2) flags on x86_64 and aarch64 (O_NOFOLLOW differs), flock(2) operations, errno values
  private static final int O_RDONLY = 0, O_RDWR = 02, O_CREAT = 0100, O_EXCL = 0200, O_NONBLOCK = 04000;
  private static final int O_CLOEXEC = 02000000;
  private static final int O_NOFOLLOW = "aarch64".equals(System.getProperty("os.arch")) ? 0100000 : 0400000;
  private static final int LOCK_SH = 1, LOCK_EX = 2, LOCK_NB = 4, LOCK_UN = 8;
  private static final int ENOENT = 2, EINTR = 4, EAGAIN = 11, EACCES = 13, EEXIST = 17;
  private static final int STICKY_ALL = 01777;
  private static final int HOLDER_BYTES = 4096;
  /** How long a taker retries past readers' brief shared locks before it calls a lease held. */
  private static final int TAKE_TRIES = 50;

  /** The raw binding; C names verbatim. */
  interface C extends Library {
    int open(String path, int flags, int mode) throws LastErrorException;

    int flock(int fd, int operation) throws LastErrorException;

    int ftruncate(int fd, long length) throws LastErrorException;

    long pwrite(int fd, byte[] buf, long count, long offset) throws LastErrorException;

    long pread(int fd, byte[] buf, long count, long offset) throws LastErrorException;

    int fchmod(int fd, int mode) throws LastErrorException;

    int chmod(String path, int mode) throws LastErrorException;

    int close(int fd) throws LastErrorException;

    String strerror(int errnum);
  }

  private static final C C_LIB = Native.load("c", C.class);

  private final Path dir;

  /** Leases kept in {@code dir}, created (mode 1777) on the first take. */
  public LeaseFiles(Path dir) {
    this.dir = dir.toAbsolutePath();
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

  @Override
  public Map<String, GpuLease> read(List<String> uuids) {
    Map<String, GpuLease> out = new HashMap<>();
    String bad = Files.exists(dir, LinkOption.NOFOLLOW_LINKS) ? checkDirectory() : null;
    for (String uuid : uuids) out.put(uuid, bad != null ? GpuLease.unreadable(bad) : readOne(uuid));
    return out;
  }

  private GpuLease readOne(String uuid) {
    Path file = file(uuid);
    int fd;
    try {
      fd = C_LIB.open(file.toString(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == ENOENT) return GpuLease.FREE; // never taken on this machine since boot
      return GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode()));
    }
    try {
      if (tryLock(fd, LOCK_SH)) {
        unlock(fd);
        return GpuLease.FREE;
      }
      return GpuLease.held(holder(fd).orElse(null));
    } catch (LastErrorException e) {
      return GpuLease.unreadable(file + ": " + C_LIB.strerror(e.getErrorCode()));
    } finally {
      closeQuietly(fd);
    }
  }

  @Override
  public Held take(List<String> uuids, LeaseHolder holder) throws Taken {
    String bad = ensureDirectory();
    if (bad != null) throw new Taken("cannot take the GPU's machine-wide lease: " + bad);
    List<Integer> fds = new ArrayList<>();
    try {
      for (String uuid : uuids) fds.add(takeOne(uuid, holder));
    } catch (Taken | RuntimeException e) {
      fds.forEach(LeaseFiles::closeQuietly);
      throw e;
    }
    return new FileHeld(fds);
  }

  private int takeOne(String uuid, LeaseHolder holder) throws Taken {
    Path file = file(uuid);
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
        throw new Taken("cannot open the lease " + file + ": " + C_LIB.strerror(e2.getErrorCode()));
      }
    }
    try {
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
    } catch (LastErrorException e) {
      closeQuietly(fd);
      throw new Taken("cannot take the lease " + file + ": " + C_LIB.strerror(e.getErrorCode()));
    } catch (Taken e) {
      closeQuietly(fd);
      throw e;
    }
  }

  /** Opens the lease, making it (writable by all, so every user can name itself in it) if it is new. */
  private static int openForLock(Path file) {
    String p = file.toString();
    while (true) {
      try {
        return C_LIB.open(p, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
      } catch (LastErrorException e) {
        if (e.getErrorCode() != ENOENT) throw e;
      }
      try {
        int fd = C_LIB.open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0666);
        C_LIB.fchmod(fd, 0666); // past the umask
        return fd;
      } catch (LastErrorException e) {
        if (e.getErrorCode() != EEXIST) throw e; // made by another gq meanwhile: open that one
      }
    }
  }

  private static boolean tryLock(int fd, int kind) {
    while (true) {
      try {
        C_LIB.flock(fd, kind | LOCK_NB);
        return true;
      } catch (LastErrorException e) {
        if (e.getErrorCode() == EAGAIN) return false;
        if (e.getErrorCode() != EINTR) throw e;
      }
    }
  }

  private static void unlock(int fd) {
    try {
      C_LIB.flock(fd, LOCK_UN);
    } catch (LastErrorException ignored) {
      // closing the descriptor drops it anyway
    }
  }

  private static Optional<LeaseHolder> holder(int fd) {
    byte[] buf = new byte[HOLDER_BYTES];
    try {
      long n = C_LIB.pread(fd, buf, buf.length, 0);
      return LeaseHolder.parse(new String(buf, 0, (int) Math.max(0, n), StandardCharsets.UTF_8));
    } catch (LastErrorException e) {
      return Optional.empty();
    }
  }

  /** The lease file of {@code uuid}; a UUID with other characters than NVML's gets a safe name. */
  Path file(String uuid) {
    if (uuid.matches("[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}")) return dir.resolve(uuid + ".lease");
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(uuid.getBytes(StandardCharsets.UTF_8));
      return dir.resolve("gpu-" + java.util.HexFormat.of().formatHex(d, 0, 16) + ".lease");
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Makes the directory (mode 1777) when missing; a reason when it is not fit to hold leases. */
  private String ensureDirectory() {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectories(dir.getParent());
        Files.createDirectory(dir);
        C_LIB.chmod(dir.toString(), STICKY_ALL);
      } catch (java.nio.file.FileAlreadyExistsException e) {
        // made by another gq meanwhile
      } catch (IOException e) {
        return "cannot make the lease directory " + dir + ": " + e.getMessage();
      } catch (LastErrorException e) {
        return "cannot open the lease directory " + dir + " to every user: " + C_LIB.strerror(e.getErrorCode());
      }
    }
    return checkDirectory();
  }

  /**
   * A reason when the directory cannot be trusted to keep leases: a link, not a directory, or one
   * that others may write but not sticky (anyone could then replace a lease file).
   */
  private String checkDirectory() {
    try {
      PosixFileAttributes a = Files.readAttributes(dir, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      if (!a.isDirectory()) return "the lease directory " + dir + " is not a directory; remove it";
      boolean othersWrite = a.permissions().contains(PosixFilePermission.OTHERS_WRITE)
          || a.permissions().contains(PosixFilePermission.GROUP_WRITE);
      if (othersWrite && !sticky(dir))
        return "the lease directory " + dir + " is writable by others but not sticky; run: chmod 1777 " + dir;
      return null;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      return "cannot read the lease directory " + dir + ": " + e.getMessage();
    }
  }

  private static boolean sticky(Path dir) throws IOException {
    Object mode = Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    return mode instanceof Integer m && (m & 01000) != 0;
  }

  private static void sleepBriefly() {
    try {
      Thread.sleep(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static void closeQuietly(int fd) {
    try {
      C_LIB.close(fd);
    } catch (LastErrorException ignored) {
      // nothing to do: the descriptor is gone either way
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
      fds.forEach(LeaseFiles::closeQuietly);
    }
  }
}
