package dev.gq.actors.daemon;

import dev.gq.cli.Gq;
import dev.gq.host.fs.DiskSpace;
import dev.gq.persistence.Database;
import dev.gq.persistence.DatabaseRefused;
import dev.gq.protocol.DiskRoom;
import dev.gq.protocol.GqPaths;
import dev.gq.protocol.PrivateDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's entry point: checks its settings and directories, takes its locks (one per runtime
 * directory, one per data directory: {@link DaemonLocks}), checks the database,
 * then starts the actors ({@link Daemon}) and serves the socket until asked to stop. Jobs are
 * never touched when the daemon stops: they run in their own sessions under their shims.
 */
public final class DaemonMain {
  private static final Logger LOG = LoggerFactory.getLogger(DaemonMain.class);

  private DaemonMain() {}

  public static void main(String[] args) {
    int code;
    try {
      code = run(System.getenv(), System.getProperty("gq.shim"));
    } catch (Startup e) {
      System.err.println("gq daemon: " + e.getMessage());
      code = 1;
    } catch (Throwable t) {
      // Never linger half-started (actor threads would keep the JVM, and the lock, alive). One
      // line first, which the client quotes when a start fails; the frames follow for the log.
      System.err.println("gq daemon: stopping after an unexpected failure: " + t);
      LOG.error("gq daemon: unexpected failure; stopping", t);
      code = 1;
    }
    if (code != 0) sayWhenTheDiskIsFull(System.getenv());
    System.exit(code);
  }

  /** Runs the daemon with the settings in {@code env} until it is asked to stop; returns the exit status. */
  static int run(Map<String, String> env, String shim) throws Startup {
    DaemonConfig cfg;
    try {
      cfg = DaemonConfig.fromEnvironment(env, shim);
    } catch (IllegalArgumentException e) {
      throw new Startup(e.getMessage());
    }
    GqPaths p = cfg.paths();
    checkDirectories(p);
    for (Path d : List.of(p.dataDir(), p.runtimeDir(), p.logDir(), p.exitDir())) privateDir(d);
    if (!Files.isExecutable(cfg.shim())) throw new Startup("the job shim " + cfg.shim() + " is missing; rebuild or reinstall gq");
    try (DaemonLocks locks = DaemonLocks.take(p)) {
      DaemonLog.takeOverIfStderr(p.daemonLog());
      LOG.info("starting gq daemon {} (pid {})", Gq.VERSION, ProcessHandle.current().pid());
      JobFileScan files = JobFileScan.of("1".equals(env.get(JobFileScan.ACCEPT_LOSS)), p.logDir(), p.exitDir());
      String lost = files.refusal(p.database(), p.logDir(), p.exitDir());
      if (lost != null) throw new Startup(lost);
      Database.prepare(p.database());
      DiskSpace.ensureReserve(p.dataDir());
      CountDownLatch closed = new CountDownLatch(1);
      String failure;
      try (Daemon d = Daemon.start(cfg, env, files)) {
        writePid(p.pidFile());
        LOG.info("gq daemon ready (pid {}, data {}, GPUs: {})", ProcessHandle.current().pid(), p.dataDir(), d.probeText());
        // SIGTERM/SIGINT: stop as 'gq daemon stop' does, and let the JVM exit only once files are cleaned up.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          d.requestStop();
          awaitQuietly(closed);
        }, "gq-shutdown"));
        d.awaitStop();
        failure = d.failure();
        if (failure == null) LOG.info("gq daemon stopping; running jobs keep running");
      } finally {
        deleteQuietly(p.pidFile());
        closed.countDown();
      }
      if (failure != null) {
        System.err.println("gq daemon: stopped because " + failure);
        return 1;
      }
      return 0;
    } catch (DatabaseRefused e) {
      throw new Startup(e.getMessage());
    } catch (IOException e) {
      throw new Startup("cannot start: " + e.getMessage());
    }
  }

  /**
   * Refuses directories another user owns or can write (they could read the jobs' environments or
   * plant links where job output goes), and a log or exit-record directory that is a symbolic link.
   */
  private static void checkDirectories(GqPaths p) throws Startup {
    String problem = PrivateDirectory.checkBoth(p);
    if (problem == null) problem = PrivateDirectory.check("the log directory", "GQ_DATA_DIR", p.logDir(), true);
    if (problem == null) problem = PrivateDirectory.check("the exit-record directory", "GQ_DATA_DIR", p.exitDir(), true);
    if (problem != null) throw new Startup(problem);
  }

  /** A failed start on a full disk ends with a line that says so (the likely reason, whatever failed). */
  private static void sayWhenTheDiskIsFull(Map<String, String> env) {
    try {
      String full = DiskRoom.fullNote(GqPaths.fromEnvironment(env).dataDir());
      if (full != null) System.err.println("gq daemon: " + full + "; free some space there and start gq again");
    } catch (RuntimeException ignored) {
      // settings already reported
    }
  }

  private static void privateDir(Path d) throws Startup {
    try {
      Files.createDirectories(d);
      Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new Startup("cannot create the directory " + d + ": " + e.getMessage() + "; check GQ_DATA_DIR and GQ_RUNTIME_DIR");
    }
  }

  private static void writePid(Path f) throws IOException {
    Path tmp = f.resolveSibling(f.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(tmp, ProcessHandle.current().pid() + "\n");
    Files.move(tmp, f, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(15, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void deleteQuietly(Path f) {
    try {
      Files.deleteIfExists(f);
    } catch (IOException ignored) {
      // nothing useful to do while stopping
    }
  }
}
