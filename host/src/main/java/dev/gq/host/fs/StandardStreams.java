package dev.gq.host.fs;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.file.Path;

/**
 * Points the process's standard output and error (descriptors 1 and 2) at a file, appending: what
 * the JVM itself writes there (a fatal error, a thread dump) then follows the daemon log when the
 * log is rotated. Stateless.
 */
public final class StandardStreams {
  private static final int O_WRONLY = 1;
  private static final int O_APPEND = 0x400;
  private static final int O_CLOEXEC = 0x80000;

  /** The raw binding; C names verbatim. */
  interface C extends Library {
    int open(String path, int flags) throws LastErrorException;

    int dup2(int oldFd, int newFd) throws LastErrorException;

    int close(int fd) throws LastErrorException;
  }

  private static final C C_LIB = Native.load("c", C.class);

  private StandardStreams() {}

  /** Appends descriptors 1 and 2 to {@code file}, which must exist; throws when it cannot be opened. */
  public static void appendTo(Path file) throws LastErrorException {
    int fd = C_LIB.open(file.toString(), O_WRONLY | O_APPEND | O_CLOEXEC);
    try {
      C_LIB.dup2(fd, 1);
      C_LIB.dup2(fd, 2);
    } finally {
      C_LIB.close(fd);
    }
  }
}
