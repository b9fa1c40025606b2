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
    try {
      Object ino = Files.getAttribute(lockFile, "unix:ino");
      String suffix = ":" + ino;
      for (String line : Files.readAllLines(procLocks)) {
        // "1: POSIX  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"; fields split on runs of spaces
        for (String field : line.trim().split(" +")) {
          if (field.endsWith(suffix) && field.indexOf(':') < field.lastIndexOf(':')) return true;
        }
      }
      return false;
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
