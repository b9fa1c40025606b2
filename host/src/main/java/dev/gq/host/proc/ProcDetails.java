package dev.gq.host.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The reads of /proc that adopting a process needs beyond its stat line: owner, command line,
 * working directory, where its stdout goes, and its start by the wall clock. Each returns empty
 * (or -1) when the process is gone or the file unreadable, never an error. Used by {@link ProcFs}.
 */
final class ProcDetails {
  /** USER_HZ, the unit of /proc start ticks: 100 on every Linux architecture gq runs on. */
  static final long TICKS_PER_SECOND = 100;

  private ProcDetails() {}

  /** The real uid from a status file's "Uid:" line when effective and saved are the same, else -1. */
  static long uid(String status) {
    for (String line : status.split("\n")) {
      if (!line.startsWith("Uid:")) continue;
      String[] f = line.substring(4).strip().split("\\s+");
      if (f.length < 3 || !f[0].equals(f[1]) || !f[0].equals(f[2])) return -1;
      try {
        return Long.parseLong(f[0]);
      } catch (NumberFormatException e) {
        return -1;
      }
    }
    return -1;
  }

  /** A cmdline file's bytes as argv: split on NUL, the trailing NUL dropped. */
  static List<String> argv(byte[] cmdline) {
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < cmdline.length; i++) {
      if (cmdline[i] != 0) continue;
      out.add(new String(cmdline, start, i - start, StandardCharsets.UTF_8));
      start = i + 1;
    }
    if (start < cmdline.length) out.add(new String(cmdline, start, cmdline.length - start, StandardCharsets.UTF_8));
    return out;
  }

  /** The boot time in seconds since the epoch, from /proc/stat's "btime" line; -1 when absent. */
  static long bootTime(String procStat) {
    for (String line : procStat.split("\n"))
      if (line.startsWith("btime ")) return Long.parseLong(line.substring(6).strip());
    return -1;
  }

  /** Boot time plus {@code ticks} of USER_HZ. */
  static Instant started(long bootSeconds, long ticks) {
    return Instant.ofEpochSecond(bootSeconds).plusMillis(ticks * 1000 / TICKS_PER_SECOND);
  }

  static Optional<String> read(Path p) {
    try {
      return Optional.of(Files.readString(p));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  static Optional<String> link(Path p) {
    try {
      return Optional.of(Files.readSymbolicLink(p).toString());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** The target of descriptor link {@code fd} when it names a regular file that is still there (not deleted). */
  static Optional<String> regularFile(Path fd) {
    return link(fd).filter(t -> t.startsWith("/") && Files.isRegularFile(Path.of(t)));
  }
}
