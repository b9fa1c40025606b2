package dev.gq.client;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Tells, without taking it, whether some process holds a lock on the daemon's lock file: the
 * kernel lists every file lock in /proc/locks by inode. When two clients start a daemon at once,
 * the daemon that loses the lock exits at once while the winner is still starting; its lock says
 * that waiting is worth it. Taking the lock to test it could make the winner lose it.
 */
final class LockProbe {
  private LockProbe() {}

  static boolean held(Path lockFile) {
    return held(lockFile, Path.of("/proc/locks"));
  }

  static boolean held(Path lockFile, Path procLocks) {
    return holder(lockFile, procLocks) != 0;
  }

  /** The pid holding a lock on the file; 0 when none, -1 when the lock is no process's own (an OFD lock). */
  static long holder(Path lockFile) {
    return holder(lockFile, Path.of("/proc/locks"));
  }

  static long holder(Path lockFile, Path procLocks) {
    try {
      Object ino = Files.getAttribute(lockFile, "unix:ino");
      String suffix = ":" + ino;
      for (String line : Files.readAllLines(procLocks)) {
        // "1: POSIX  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"; a waiter's line has "->" after the number
        String[] f = line.trim().split(" +");
        if (f.length < 6 || f[1].equals("->")) continue;
        String id = f[5];
        if (id.endsWith(suffix) && id.indexOf(':') < id.lastIndexOf(':')) {
          long pid = Long.parseLong(f[4]);
          return pid > 0 ? pid : -1;
        }
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }
}
