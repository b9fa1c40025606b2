package dev.gq.host.lease;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The libc calls behind the lease files: the raw binding (C names verbatim), the open(2) and
 * flock(2) constants, and the few steps built on them that {@link LeaseFiles} repeats: open a lease
 * for locking (making it writable by all when new), try a lock without blocking, read the holder's
 * line, close a descriptor whatever happens.
 */
final class LeaseLibc {
  // open(2) flags on x86_64 and aarch64 (O_NOFOLLOW differs), flock(2) operations, errno values
  static final int O_RDONLY = 0, O_RDWR = 02, O_CREAT = 0100, O_EXCL = 0200, O_NONBLOCK = 04000;
  static final int O_CLOEXEC = 02000000;
  static final int O_NOFOLLOW = "aarch64".equals(System.getProperty("os.arch")) ? 0100000 : 0400000;
  static final int LOCK_SH = 1, LOCK_EX = 2, LOCK_NB = 4, LOCK_UN = 8;
  static final int ENOENT = 2, EINTR = 4, EAGAIN = 11, EACCES = 13, EEXIST = 17, ELOOP = 40;
  static final int W_OK = 2, X_OK = 1;
  static final int HOLDER_BYTES = 4096;

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

    int access(String path, int mode) throws LastErrorException;

    int unlink(String path) throws LastErrorException;

    int geteuid();

    String strerror(int errnum);
  }

  static final C C_LIB = Native.load("c", C.class);

  private LeaseLibc() {}

  /** Opens the lease, making it (writable by all, so every user can name itself in it) if it is new. */
  static int openForLock(Path file) {
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

  static boolean tryLock(int fd, int kind) {
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

  static void unlock(int fd) {
    try {
      C_LIB.flock(fd, LOCK_UN);
    } catch (LastErrorException ignored) {
      // closing the descriptor drops it anyway
    }
  }

  static Optional<LeaseHolder> holder(int fd) {
    return text(fd).flatMap(LeaseHolder::parse);
  }

  static Optional<LeaseShare> share(int fd) {
    return text(fd).flatMap(LeaseShare::parse);
  }

  /** The file's first {@link #HOLDER_BYTES} bytes as text; empty when they cannot be read. */
  private static Optional<String> text(int fd) {
    byte[] buf = new byte[HOLDER_BYTES];
    try {
      long n = C_LIB.pread(fd, buf, buf.length, 0);
      return Optional.of(new String(buf, 0, (int) Math.max(0, n), StandardCharsets.UTF_8));
    } catch (LastErrorException e) {
      return Optional.empty();
    }
  }

  static void sleepBriefly() {
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

}
