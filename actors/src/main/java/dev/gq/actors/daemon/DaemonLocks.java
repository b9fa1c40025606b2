package dev.gq.actors.daemon;

import dev.gq.protocol.GqPaths;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * The two locks a daemon holds for its whole life: one in its runtime directory (one daemon per
 * socket) and one in its data directory (one daemon per database, whatever runtime directory each
 * was given). The data lock file names its holder ("pid N runtime DIR") so that a second daemon can
 * say which one is in its way. Both files are opened without following symbolic links.
 */
final class DaemonLocks implements AutoCloseable {
  private static final Set<OpenOption> OPEN = Set.of(StandardOpenOption.CREATE, StandardOpenOption.READ,
      StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);

  private final FileChannel runtimeFile;
  private final FileChannel dataFile;

  private DaemonLocks(FileChannel runtimeFile, FileChannel dataFile) {
    this.runtimeFile = runtimeFile;
    this.dataFile = dataFile;
  }

  /** Takes both locks, or says in one line which daemon holds one. */
  static DaemonLocks take(GqPaths p) throws IOException, Startup {
    FileChannel runtime = open(p.lockFile());
    try {
      if (runtime.tryLock() == null) {
        String pid = Files.exists(p.pidFile()) ? Files.readString(p.pidFile()).strip() : "unknown";
        throw new Startup("another gq daemon is already running for " + p.runtimeDir() + " (pid " + pid
            + "); use it, or stop it with 'gq daemon stop'");
      }
      FileChannel data = open(p.dataLockFile());
      try {
        FileLock lock = data.tryLock();
        if (lock == null) throw new Startup(holderText(p, data));
        data.truncate(0);
        data.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + " runtime " + p.runtimeDir() + "\n")
            .getBytes(StandardCharsets.UTF_8)), 0);
        return new DaemonLocks(runtime, data);
      } catch (IOException | Startup | RuntimeException e) {
        data.close();
        throw e;
      }
    } catch (IOException | Startup | RuntimeException e) {
      runtime.close();
      throw e;
    }
  }

  private static FileChannel open(Path f) throws IOException {
    return FileChannel.open(f, OPEN, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
  }

  /** The refusal naming the daemon that holds the data lock, from what it wrote in the file. */
  static String holderText(GqPaths p, FileChannel data) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(4096);
    data.read(buf, 0);
    String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8).strip();
    String pid = "unknown";
    String runtime = "unknown";
    if (text.startsWith("pid ") && text.contains(" runtime ")) {
      pid = text.substring(4, text.indexOf(" runtime "));
      runtime = text.substring(text.indexOf(" runtime ") + 9);
    }
    return "another gq daemon (pid " + pid + ", runtime directory " + runtime + ") already uses the data directory "
        + p.dataDir() + "; use that daemon (GQ_RUNTIME_DIR=" + runtime + "), or stop it first";
  }

  @Override
  public void close() throws IOException {
    try {
      dataFile.close();
    } finally {
      runtimeFile.close();
    }
  }
}
