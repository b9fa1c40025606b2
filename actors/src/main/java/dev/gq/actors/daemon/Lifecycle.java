package dev.gq.actors.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Notes about where the daemon runs that a user should know, shown by `gq daemon status`: a daemon
 * started from a shell lives in that login session's cgroup, and with systemd's
 * KillUserProcesses=yes a logout ends the session's processes, jobs included.
 */
final class Lifecycle {
  private Lifecycle() {}

  /** A warning when the daemon (and so its jobs) sits in a login session's scope, or null. */
  static String warning() {
    return warning(Path.of("/proc/self/cgroup"));
  }

  static String warning(Path cgroupFile) {
    try {
      for (String line : Files.readAllLines(cgroupFile)) {
        String path = line.substring(line.lastIndexOf(':') + 1);
        int at = path.indexOf("/session-");
        if (at >= 0 && path.endsWith(".scope"))
          return "the daemon runs in login session " + path.substring(at + 1)
              + "; a logout may end it and its jobs (systemd KillUserProcesses); see docs/troubleshooting.md";
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return null;
  }
}
