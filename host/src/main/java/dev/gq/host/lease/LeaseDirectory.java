package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;

/**
 * The directory every gq on the machine keeps its GPU leases in: made sticky and writable by all
 * (like /tmp) on the first take, refused when it cannot be trusted (a link, not a directory, or
 * writable by others without the sticky bit), and the name of each GPU's lease file in it.
 */
final class LeaseDirectory {
  private static final int STICKY_ALL = 01777;

  private final Path dir;

  LeaseDirectory(Path dir) {
    this.dir = dir;
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
  String ensure() {
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
    return check();
  }

  /**
   * A reason when the directory cannot be trusted to keep leases: a link, not a directory, or one
   * that others may write but not sticky (anyone could then replace a lease file).
   */
  String check() {
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

}
