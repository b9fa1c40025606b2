package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases.Taken;
import dev.gq.core.lease.LeaseRules;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Opens a lease, share or share-lock file for locking, never through a link and never anything but
 * a regular file: made when missing, a planted non-file cleared first where this user may, opened
 * read-only (its lock still counts) when another user made it without write access for all. Every
 * take of {@link LeaseFiles} opens its files here.
 */
final class LockFiles {
  private final LeaseReads reads;

  LockFiles(LeaseReads reads) {
    this.reads = reads;
  }

  /** A lease or share file open for locking; {@code writable} false when only its lock can be had, not its line. */
  record Opened(int fd, boolean writable) {}

  /**
   * Opens the lease or share file {@code file} for locking, never through a link: made (0666) when
   * missing, a planted non-file cleared first where this user may (see {@link #clearedSpot}), read-only
   * when this user may not write it, refused when this user cannot open it or it is no regular file.
   */
  Opened open(Path file) throws Taken {
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
    } catch (IOException e) {
      closeQuietly(fd);
      throw new Taken("cannot take the lease " + file + ": " + e.getMessage());
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
      GpuLease l = reads.notAFile(file, spot);
      if (l.state() != GpuLease.State.FREE) throw new Taken("cannot take the GPU's machine-wide lease: " + l.error());
      try {
        C_LIB.unlink(file.toString()); // never a lease: no lock can be lost with it
      } catch (LastErrorException e) {
        if (e.getErrorCode() != ENOENT)
          throw new Taken("cannot remove " + spot.kind() + " at the lease " + file + ": " + C_LIB.strerror(e.getErrorCode()));
      }
      return null;
    } catch (IOException e) {
      throw new Taken("cannot read the lease " + file + ": " + e.getMessage());
    }
  }
}
