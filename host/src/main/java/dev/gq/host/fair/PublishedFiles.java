package dev.gq.host.fair;

import dev.gq.host.fs.RegularFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Small files every user's gq publishes in the shared (sticky) lease directory and reads from it:
 * written whole or not at all (a new temp file, made with O_EXCL so no link is followed, mode
 * 0644, then renamed over the name: rename replaces a link rather than following it), read only
 * when lstat says a regular file of at most the given size, opened with O_NOFOLLOW and
 * O_NONBLOCK. A reader learns each file's owner (what it may speak for). Stateless.
 */
final class PublishedFiles {
  private static final SecureRandom RANDOM = new SecureRandom();

  private PublishedFiles() {}

  static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  /**
   * A file read: its name, its owner's uid, its text, and its change time (the kernel's; no user
   * can set it back, unlike the modification time).
   */
  record Read(String name, int ownerUid, String text, Instant changed) {}

  /** Writes {@code text} to {@code dir/name} whole; the one line that says why not, or null. */
  static String write(Path dir, String name, String text) {
    Path tmp = dir.resolve("." + name + ".tmp-" + HexFormat.of().formatHex(randomBytes(6)));
    try {
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS))
        return "the lease directory " + dir + " does not exist yet (no gq on this machine has leased a GPU)";
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
          LinkOption.NOFOLLOW_LINKS)) {
        ch.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        ch.force(false);
      }
      // past the umask: everyone's gq reads it
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
      return null;
    } catch (AccessDeniedException e) {
      return "cannot write " + dir.resolve(name) + ": another user's file has that name or the directory is closed to this user;"
          + " ask its owner or root to remove it";
    } catch (FileAlreadyExistsException e) {
      return "cannot write " + dir.resolve(name) + ": a temporary file of that name exists; try again";
    } catch (IOException e) {
      return "cannot write " + dir.resolve(name) + ": " + e.getMessage();
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException e) {
        // it was renamed, or cannot be removed: nobody reads a temp name
      }
    }
  }

  /** Every file in {@code dir} whose name {@code named} accepts, read tolerantly; {@code ignored} gets name → why for the others. */
  static List<Read> readAll(Path dir, Predicate<String> named, int maxBytes, Map<String, String> ignored) {
    List<Read> out = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> named.test(p.getFileName().toString()))) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        try {
          Map<String, Object> a = Files.readAttributes(p, "unix:uid,mode,size,ctime", LinkOption.NOFOLLOW_LINKS);
          if (((Integer) a.get("mode") & 0170000) != 0100000) ignored.put(name, "it is not a regular file");
          else if ((Long) a.get("size") > maxBytes) ignored.put(name, "it is larger than " + maxBytes + " bytes");
          else out.add(new Read(name, (Integer) a.get("uid"), text(p, maxBytes), ((FileTime) a.get("ctime")).toInstant()));
        } catch (NoSuchFileException e) {
          // removed meanwhile
        } catch (IOException e) {
          ignored.put(name, "it cannot be read: " + e.getMessage());
        }
      }
    } catch (NoSuchFileException e) {
      return out;
    } catch (IOException e) {
      ignored.put(dir.toString(), "the directory cannot be listed: " + e.getMessage());
    }
    return out;
  }

  private static String text(Path p, int maxBytes) throws IOException {
    try (FileChannel ch = RegularFiles.openForReading(p)) {
      ByteBuffer buf = ByteBuffer.allocate(maxBytes + 1);
      while (buf.hasRemaining() && ch.read(buf) > 0) {}
      if (buf.position() > maxBytes) throw new IOException("it grew past " + maxBytes + " bytes");
      return new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    }
  }

  /** A name in the directory as lstat sees it: its owner's uid and its change time. */
  record Entry(String name, int ownerUid, Instant changed) {}

  /** Every entry in {@code dir} whose name {@code named} accepts (lstat, never following a link); none when it cannot be listed. */
  static List<Entry> list(Path dir, Predicate<String> named) {
    List<Entry> out = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> named.test(p.getFileName().toString()))) {
      for (Path p : entries) {
        try {
          Map<String, Object> a = Files.readAttributes(p, "unix:uid,ctime", LinkOption.NOFOLLOW_LINKS);
          out.add(new Entry(p.getFileName().toString(), (Integer) a.get("uid"), ((FileTime) a.get("ctime")).toInstant()));
        } catch (IOException e) {
          // removed meanwhile, or unreadable: nothing to do with it
        }
      }
    } catch (IOException e) {
      return out;
    }
    return out;
  }

  /** The owner's uid of what stands at {@code dir/name} (lstat); -1 when nothing does or it cannot be read. */
  static int ownerOf(Path dir, String name) {
    try {
      return (Integer) Files.getAttribute(dir.resolve(name), "unix:uid", LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      return -1;
    }
  }

  /** Removes {@code dir/name} when it is {@code uid}'s (lstat); the line that says why not, or null. */
  static String removeOwn(Path dir, String name, int uid) {
    Path p = dir.resolve(name);
    try {
      int owner = (Integer) Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
      if (owner != uid) return p + " belongs to uid " + owner + "; only its owner or root may remove it";
      Files.delete(p);
      return null;
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      return "cannot remove " + p + ": " + e.getMessage();
    }
  }
}
