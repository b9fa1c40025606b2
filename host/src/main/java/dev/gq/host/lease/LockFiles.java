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
 * a regular file with one name that is the very file at its name in the lease directory: made when
 * missing, a planted non-file or hard link cleared first where this user may, opened read-only (its
 * lock still counts) when another user made it without write access for all. Every take of
 * {@link LeaseFiles} opens its files here, and confirms them again once locked ({@link #confirm}).
 */
final class LockFiles {
  private final LeaseDirectory directory;
  private final LeaseReads reads;

  LockFiles(LeaseDirectory directory, LeaseReads reads) {
    this.directory = directory;
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
      confirm(fd, file);
      return new Opened(fd, writable);
    } catch (Taken e) {
      closeQuietly(fd);
      throw e;
    }
  }

  /**
   * Refuses {@code fd} unless it is the lease file {@code file} gq may write: a regular file with one
   * name, the one at {@code file} now. Asked at the open and again once the file is locked, before
   * anything is written: a name hard-linked to another file is never written, and a lock on a file
   * that lost its name (cleared by {@link #removeUnheld}) is never taken for the lease.
   */
  void confirm(int fd, Path file) throws Taken {
    try {
      String why = directory.misfit(fd, file);
      if (why != null) throw new Taken("cannot take the lease " + file + ": " + why + "; try again");
    } catch (IOException e) {
      throw new Taken("cannot take the lease " + file + ": " + e.getMessage());
    }
  }

  /**
   * What stands at {@code file} before it is taken; a file there that is no lease (not a regular
   * file, or one with other names too) removed first when this user may, else refused naming who
   * may ({@link LeaseRules}).
   */
  private LeaseDirectory.Spot clearedSpot(Path file) throws Taken {
    try {
      LeaseDirectory.Spot spot = LeaseDirectory.spot(file);
      if (spot == null || spot.lease()) return spot;
      GpuLease l = reads.notAFile(file, spot);
      if (l.state() != GpuLease.State.FREE) throw new Taken("cannot take the GPU's machine-wide lease: " + l.error());
      if (spot.regular()) removeUnheld(file);
      else unlink(file, spot); // never a lease: no lock can be lost with it
      return null;
    } catch (IOException e) {
      throw new Taken("cannot read the lease " + file + ": " + e.getMessage());
    }
  }

  /**
   * Removes the name {@code file} of a hard-linked regular file, only while nobody holds it: it is
   * locked alone first (a job's lock on it would be a lease), and its name removed under that lock.
   * A taker that opened it before and locks it after finds it nameless ({@link #confirm}).
   */
  private void removeUnheld(Path file) throws Taken {
    int fd;
    try {
      fd = C_LIB.open(file.toString(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
    } catch (LastErrorException e) {
      if (e.getErrorCode() == ENOENT) return;
      throw new Taken("cannot open the lease " + file + " to test its lock: " + C_LIB.strerror(e.getErrorCode()));
    }
    try {
      if (!tryLock(fd, LOCK_EX)) {
        String who = holder(fd).map(h -> h.describe(null)).orElse("a gq job whose lease does not say who it is");
        throw new Taken("cannot take the lease " + file + ": it is held by " + who);
      }
      if (LeaseDirectory.named(fd, file)) unlink(file, LeaseDirectory.spot(file)); // else someone else cleared it
    } catch (IOException e) {
      throw new Taken("cannot read the lease " + file + ": " + e.getMessage());
    } finally {
      closeQuietly(fd);
    }
  }

  private static void unlink(Path file, LeaseDirectory.Spot spot) throws Taken {
    try {
      C_LIB.unlink(file.toString());
    } catch (LastErrorException e) {
      if (e.getErrorCode() != ENOENT)
        throw new Taken("cannot remove " + (spot == null ? "the file" : spot.kind()) + " at the lease " + file + ": "
            + C_LIB.strerror(e.getErrorCode()));
    }
  }
}
