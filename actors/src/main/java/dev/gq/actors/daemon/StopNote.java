package dev.gq.actors.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;

/**
 * Why the last daemon stopped after a failure, kept in {@code <data>/daemon.failed} for the next:
 * the daemon that stops writes it, the next to start reads and removes it, logs it, says it to its
 * first client and shows it in {@code gq daemon status}.
 */
final class StopNote {
  static final String FILE = "daemon.failed";

  private StopNote() {}

  /** Keeps {@code line} for the next daemon; a note that cannot be written is only logged. */
  static void write(Path dataDir, String line, Instant at) throws IOException {
    Path f = dataDir.resolve(FILE);
    Path tmp = dataDir.resolve(FILE + ".tmp");
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, at + " " + line + "\n");
    Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The note the last daemon left, as the line to show ("the previous daemon stopped at … after …"), removed; or null. */
  static String take(Path dataDir) {
    Path f = dataDir.resolve(FILE);
    try {
      if (!Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)) return null;
      String text = Files.readString(f).strip();
      Files.delete(f);
      int space = text.indexOf(' ');
      if (space < 0) return null;
      return "the previous daemon stopped at " + text.substring(0, space) + " because " + text.substring(space + 1);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
