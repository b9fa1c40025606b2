package dev.gq.host.lease;

import dev.gq.core.lease.LockWitness;
import dev.gq.core.proc.ProcInfo;
import dev.gq.host.proc.ProcFs;
import dev.gq.host.proc.ProcLocks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kernel's answer to who holds a lease or share file's lock: /proc/locks names the pid of each
 * lock on the file's inode (the POSIX read locks of the jobs' shims, and the pid that took the
 * flock), and /proc/PID/status that process's uid; the user database names the uid. A pid that has
 * ended, is a zombie, or whose uids differ is passed over. One {@link Reading} per read of the
 * leases: /proc/locks is read once for all of its files. Never reads what a file says.
 */
class LockOwners {
  private final Path proc;
  private final ProcFs processes;

  LockOwners(Path proc) {
    this.proc = proc;
    this.processes = new ProcFs(proc);
  }

  /** What the kernel says of each file read with it: one look at /proc/locks for all of them. */
  interface Reading {
    /** Who holds the lock of the file open as {@code fd}. */
    LockWitness witness(int fd);
  }

  /** A read of /proc/locks for the witnesses of several files, made when the first is asked for. */
  Reading reading() {
    return new KernelReading();
  }

  /** One read of /proc/locks, and the users of the pids it names (each looked up once). */
  private final class KernelReading implements Reading {
    private Map<ProcLocks.FileKey, ProcLocks.Holders> locks;
    private boolean read;
    private final Map<Long, Optional<LockWitness.Person>> people = new HashMap<>();

    /** /proc/locks by file, read and indexed once for every file of this reading; null when unreadable. */
    private Map<ProcLocks.FileKey, ProcLocks.Holders> locks() {
      if (!read) {
        read = true;
        try {
          locks = ProcLocks.index(Files.readString(proc.resolve("locks")));
        } catch (IOException | RuntimeException e) {
          locks = null; // the kernel names nobody: lines are shown, never charged
        }
      }
      return locks;
    }

    @Override
    public LockWitness witness(int fd) {
      Map<ProcLocks.FileKey, ProcLocks.Holders> locks = locks();
      if (locks == null) return LockWitness.NONE;
      Map<String, Object> a;
      try {
        a = Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:dev,ino");
      } catch (IOException | RuntimeException e) {
        return LockWitness.NONE;
      }
      long dev = (Long) a.get("dev");
      ProcLocks.Holders h = locks.get(new ProcLocks.FileKey(ProcLocks.major(dev), ProcLocks.minor(dev), (Long) a.get("ino")));
      if (h == null) return LockWitness.NONE;
      List<LockWitness.Person> markers = new ArrayList<>();
      for (long pid : h.posix()) person(pid).filter(p -> !markers.contains(p)).ifPresent(markers::add);
      LockWitness.Person taker = h.flock().stream().map(this::person).flatMap(Optional::stream).findFirst().orElse(null);
      return new LockWitness(markers, taker);
    }

    private Optional<LockWitness.Person> person(long pid) {
      return people.computeIfAbsent(pid, this::lookUp);
    }

    private Optional<LockWitness.Person> lookUp(long pid) {
      Optional<ProcInfo> info = processes.info(pid);
      if (info.isEmpty() || info.get().zombie()) return Optional.empty();
      long uid = processes.uid(pid);
      if (uid < 0) return Optional.empty();
      return Optional.of(new LockWitness.Person((int) uid, name(pid, (int) uid)));
    }

    /** The login name of {@code uid}, as the user database gives it to the JDK, from the process's /proc entry. */
    private String name(long pid, int uid) {
      try {
        Path p = proc.resolve(Long.toString(pid));
        if ((Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS) == uid)
          return Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName();
      } catch (IOException | RuntimeException e) {
        // named by its uid below
      }
      return "uid-" + uid;
    }
  }
}
