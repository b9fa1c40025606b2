package dev.gq.host.fs;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Opens a file that gq reads on a user's behalf (a job's log) so that the reading thread can never
 * hang on it: {@code open(2)} with {@code O_NONBLOCK} (a named pipe is not waited on) and
 * {@code O_NOFOLLOW} (a symbolic link in the last component is refused), then the opened file is
 * checked to be a regular file before a channel is made from it. Anything else is refused with
 * {@link NotRegularFileException}, naming what it is. Stateless and thread-safe.
 */
public final class RegularFiles {
  private static final int O_RDONLY = 0;
  private static final int O_NONBLOCK = 0x800;
  private static final int O_CLOEXEC = 0x80000;
  // O_NOFOLLOW is 0100000 on ARM and PowerPC, 0400000 on x86 and the generic Linux ABI
  private static final int O_NOFOLLOW = System.getProperty("os.arch", "").matches("aarch64|arm.*|ppc.*") ? 0x8000 : 0x20000;
  private static final int ENOENT = 2;
  private static final int EACCES = 13;
  private static final int ENXIO = 6;
  private static final int ELOOP = 40;

  /** The raw binding; C names verbatim. */
  interface C extends Library {
    int open(String path, int flags) throws LastErrorException;

    int close(int fd) throws LastErrorException;
  }

  private static final C C_LIB = Native.load("c", C.class);

  private RegularFiles() {}

  /**
   * Opens {@code path} for reading. Throws {@link NoSuchFileException} when it does not exist,
   * {@link NotRegularFileException} when it (or what it opened as) is not a regular file, and
   * another {@link IOException} when it cannot be opened.
   */
  public static FileChannel openForReading(Path path) throws IOException {
    // lstat first: a device is never opened at all (opening some has effects)
    String kind = kind(path, LinkOption.NOFOLLOW_LINKS);
    if (kind != null) throw new NotRegularFileException(path, kind);
    int fd = open(path);
    try {
      Path opened = Path.of("/proc/self/fd/" + fd);
      // the name may have been swapped since the lstat: check what was really opened
      kind = kind(opened);
      if (kind != null) throw new NotRegularFileException(path, kind);
      return FileChannel.open(opened, StandardOpenOption.READ);
    } finally {
      C_LIB.close(fd);
    }
  }

  private static int open(Path path) throws IOException {
    try {
      return C_LIB.open(path.toString(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    } catch (LastErrorException e) {
      throw switch (e.getErrorCode()) {
        case ENOENT -> new NoSuchFileException(path.toString());
        case EACCES -> new AccessDeniedException(path.toString());
        case ELOOP -> new NotRegularFileException(path, "a symbolic link");
        case ENXIO -> new NotRegularFileException(path, "a socket or device");
        default -> new FileSystemException(path.toString(), null, e.getMessage());
      };
    }
  }

  /** What {@code p} is when it is not a regular file ("a named pipe", ...); null for a regular file. */
  static String kind(Path p, LinkOption... options) throws IOException {
    int mode = (Integer) Files.getAttribute(p, "unix:mode", options);
    return switch (mode & 0170000) {
      case 0100000 -> null;
      case 0010000 -> "a named pipe";
      case 0140000 -> "a socket";
      case 0120000 -> "a symbolic link";
      case 0040000 -> "a directory";
      case 0020000, 0060000 -> "a device";
      default -> "something else";
    };
  }

  /** A file gq reads is not a regular file; {@link #kind()} says what it is. */
  public static final class NotRegularFileException extends FileSystemException {
    private final String kind;

    NotRegularFileException(Path path, String kind) {
      super(path.toString(), null, "is " + kind + ", not a regular file");
      this.kind = kind;
    }

    public String kind() {
      return kind;
    }
  }
}
