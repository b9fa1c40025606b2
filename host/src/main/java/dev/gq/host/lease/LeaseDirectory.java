package dev.gq.host.lease;

import static dev.gq.host.lease.LeaseLibc.*;

import com.sun.jna.LastErrorException;
import dev.gq.core.lease.LeaseRules;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The directory every gq on the machine keeps its GPU leases in: made sticky and writable by all
 * (like /tmp) on the first take, refused when it cannot be trusted (a link, not a directory, or
 * writable by others without the sticky bit), said so when this user could not make a lease file
 * in it, the name of each GPU's lease file in it, and what stands at such a name (lstat, never
 * following a link).
 */
final class LeaseDirectory {
  private static final int STICKY_ALL = 01777;
  /** A name NVML gives a GPU (and so a file name as it is). */
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}");

  private final Path dir;

  LeaseDirectory(Path dir) {
    this.dir = dir;
  }

  /** The lease file of {@code uuid}; a UUID with other characters than NVML's gets a safe name. */
  Path file(String uuid) {
    if (PLAIN_NAME.matcher(uuid).matches()) return dir.resolve(uuid + ".lease");
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(uuid.getBytes(StandardCharsets.UTF_8));
      return dir.resolve("gpu-" + HexFormat.of().formatHex(d, 0, 16) + ".lease");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The file a shared job of {@code uuid} keeps locked in slot {@code n}: {@code GPU-….share.N}. */
  Path shareFile(String uuid, int n) {
    return sibling(uuid, ".share." + n);
  }

  /** The file a taker of a share of {@code uuid} locks while it checks and adds: {@code GPU-….share-lock}. */
  Path shareLock(String uuid) {
    return sibling(uuid, ".share-lock");
  }

  private Path sibling(String uuid, String suffix) {
    String lease = file(uuid).getFileName().toString();
    return dir.resolve(lease.substring(0, lease.length() - ".lease".length()) + suffix);
  }

  /** The names in the directory (none when it is missing). */
  Set<String> names() throws IOException {
    Set<String> out = new HashSet<>();
    try (var list = Files.newDirectoryStream(dir)) {
      for (Path p : list) out.add(p.getFileName().toString());
    } catch (NoSuchFileException e) {
      return out;
    }
    return out;
  }

  /** Makes the directory (mode 1777) when missing; a reason when it is not fit to hold leases. */
  String ensure() {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectories(dir.getParent());
        Files.createDirectory(dir);
        C_LIB.chmod(dir.toString(), STICKY_ALL);
      } catch (FileAlreadyExistsException e) {
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

  /**
   * A reason when this user could not make a lease file here: the directory, or when it is missing
   * the nearest folder above it that exists, is not a directory or not writable by this user (as
   * access(2) says, which also knows read-only mounts and immutable files); null when it could.
   */
  String unwritable() {
    Path p = dir;
    while (p != null && !Files.exists(p, LinkOption.NOFOLLOW_LINKS)) p = p.getParent();
    if (p == null) return null;
    boolean here = p.equals(dir);
    String what = here ? "the lease directory " + dir : "cannot make the lease directory " + dir + ": " + p;
    String elsewhere = "set GQ_LEASE_DIR to a directory every gq user on the machine can write";
    if (!Files.isDirectory(p)) return what + " is not a directory; " + elsewhere;
    try {
      C_LIB.access(p.toString(), W_OK | X_OK);
      return null;
    } catch (LastErrorException e) {
      String fix = here ? "run as its owner: chmod 1777 " + dir : "run as a user who may: mkdir -m 1777 " + dir;
      return what + " is not writable by this user (" + C_LIB.strerror(e.getErrorCode()) + "); " + fix + ", or " + elsewhere;
    }
  }

  /**
   * What stands at a lease's name: its owner, its mode (type bits included) and how many names the
   * file has. The owner's name is looked up (in the user database) only when a message names it.
   */
  record Spot(Path file, int uid, int mode, int links) {
    String owner() {
      try {
        return Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).getName();
      } catch (IOException | RuntimeException e) {
        return "uid " + uid;
      }
    }

    boolean regular() {
      return (mode & 0170000) == 0100000;
    }

    /** Whether this is a lease file gq may write: a regular file with this one name. */
    boolean lease() {
      return regular() && links == 1;
    }

    /** "a symbolic link", "a directory", "a hard link (a file with 2 names)", ...: what it is when no lease file. */
    String kind() {
      if (regular()) return "a hard link (a file with " + links + " names)";
      char type = switch (mode & 0170000) {
        case 0120000 -> 'l';
        case 0040000 -> 'd';
        case 0010000 -> 'p';
        case 0140000 -> 's';
        case 0020000 -> 'c';
        case 0060000 -> 'b';
        default -> '?';
      };
      return LeaseRules.kind(type);
    }
  }

  /** What stands at {@code file} (never following a link); null when nothing does. */
  static Spot spot(Path file) throws IOException {
    try {
      Map<String, Object> a = Files.readAttributes(file, "unix:uid,mode,nlink", LinkOption.NOFOLLOW_LINKS);
      return new Spot(file, (Integer) a.get("uid"), (Integer) a.get("mode"), (Integer) a.get("nlink"));
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The owner of the directory (who may remove any file in it, sticky or not); -1 when unknown. */
  int ownerUid() {
    try {
      return (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Whether the open descriptor {@code fd} is a regular file (what the name held may have changed since lstat). */
  static boolean regular(int fd) throws IOException {
    int mode = (Integer) Files.getAttribute(Path.of("/proc/self/fd/" + fd), "unix:mode");
    return (mode & 0170000) == 0100000;
  }

  /**
   * Why the open descriptor {@code fd} is not the lease file {@code file} gq may lock and write (one
   * phrase), or null when it is: a regular file with one name, the very file that stands at
   * {@code file} now (device and inode as lstat says), on the directory's device. So a name hard-
   * linked to someone's file, or replaced since it was opened, is never written.
   */
  String misfit(int fd, Path file) throws IOException {
    Map<String, Object> open = Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:mode,nlink,dev");
    if (((Integer) open.get("mode") & 0170000) != 0100000) return "it is not a regular file";
    if ((Integer) open.get("nlink") != 1) return "it is a hard link (a file with " + open.get("nlink") + " names)";
    if (!named(fd, file)) return "it lost its name to another file while it was opened";
    if (!open.get("dev").equals(Files.getAttribute(dir, "unix:dev", LinkOption.NOFOLLOW_LINKS)))
      return "it is on another file system than the lease directory";
    return null;
  }

  /** Whether the open descriptor {@code fd} is the file that stands at {@code file} now (device and inode, by lstat). */
  static boolean named(int fd, Path file) throws IOException {
    Map<String, Object> open = Files.readAttributes(Path.of("/proc/self/fd/" + fd), "unix:dev,ino");
    try {
      Map<String, Object> there = Files.readAttributes(file, "unix:dev,ino", LinkOption.NOFOLLOW_LINKS);
      return there.get("dev").equals(open.get("dev")) && there.get("ino").equals(open.get("ino"));
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  private static boolean sticky(Path dir) throws IOException {
    Object mode = Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
    return mode instanceof Integer m && (m & 01000) != 0;
  }

}
