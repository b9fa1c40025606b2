package dev.gq.client;

import dev.gq.protocol.DiskRoom;
import dev.gq.protocol.GqPaths;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.ByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts the daemon when none answers: makes the data and runtime directories (0700), runs
 * {@code GQ_DAEMON_CMD} detached (setsid) with stdin from /dev/null, output appended to the daemon
 * log and the environment less a surrounding job's identity (GQ_JOB_ID, GQ_JOB_TAG, ...), then connects every 20 ms until it answers. When it exits first or does not
 * answer in time, the failure quotes the last lines of the daemon log.
 */
final class DaemonLauncher {
  static final String DAEMON_CMD = "GQ_DAEMON_CMD";
  private static final String SETSID = "/usr/bin/setsid";
  private static final long POLL_MILLIS = 20;
  private static final List<String> JOB_IDENTITY = List.of("GQ_JOB_ID", "GQ_JOB_TAG", "GQ_GPU_UUIDS", "GQ_KEY");

  private final GqPaths paths;
  private final Map<String, String> env;
  private final Connector connector;
  private final long timeoutMillis;

  DaemonLauncher(GqPaths paths, Map<String, String> env, Connector connector, long timeoutMillis) {
    this.paths = paths;
    this.env = env;
    this.connector = connector;
    this.timeoutMillis = timeoutMillis;
  }

  /** Starts the daemon and returns the first connection it accepts. */
  ByteChannel start() throws ClientFailure {
    String cmd = env.get(DAEMON_CMD);
    if (cmd == null || cmd.isEmpty()) {
      throw new ClientFailure("no daemon is running and " + DAEMON_CMD
          + " is not set, so gq cannot start one; run gq through its launcher script bin/gq");
    }
    makeDirectories();
    long logStart = paths.daemonLog().toFile().length();
    return await(launch(cmd), logStart);
  }

  private void makeDirectories() throws ClientFailure {
    try {
      for (Path dir : new Path[] {paths.dataDir(), paths.runtimeDir()}) {
        Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rwx------")));
      }
      Path log = paths.daemonLog();
      if (Files.notExists(log)) {
        Files.createFile(log, PosixFilePermissions.asFileAttribute(
            PosixFilePermissions.fromString("rw-------")));
      }
    } catch (FileSystemException e) {
      String why = e.getReason() != null ? e.getReason()
          : e instanceof AccessDeniedException ? "permission denied" : e.getClass().getSimpleName();
      throw new ClientFailure("cannot create " + e.getFile() + ": " + why
          + "; check GQ_DATA_DIR and GQ_RUNTIME_DIR");
    } catch (IOException e) {
      throw new ClientFailure("cannot create the gq directories: " + e.getMessage()
          + "; check GQ_DATA_DIR and GQ_RUNTIME_DIR");
    }
  }

  private Process launch(String cmd) throws ClientFailure {
    List<String> command = new ArrayList<>(2);
    if (new File(SETSID).canExecute()) command.add(SETSID);
    command.add(cmd);
    ProcessBuilder pb = new ProcessBuilder(command);
    Map<String, String> childEnv = pb.environment();
    childEnv.clear();
    childEnv.putAll(env);
    // Started from inside a job, the daemon must not carry that job's identity: a process with the
    // job's tag counts as the job's own.
    JOB_IDENTITY.forEach(childEnv::remove);
    // absolute, so the daemon finds the same files whatever its working directory
    childEnv.put("GQ_DATA_DIR", paths.dataDir().toString());
    childEnv.put("GQ_RUNTIME_DIR", paths.runtimeDir().toString());
    pb.directory(paths.dataDir().toFile());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    pb.redirectErrorStream(true);
    pb.redirectOutput(ProcessBuilder.Redirect.appendTo(paths.daemonLog().toFile()));
    try {
      return pb.start();
    } catch (IOException e) {
      throw new ClientFailure("cannot start the daemon with " + DAEMON_CMD + "=" + cmd + ": "
          + e.getMessage() + "; check that it is an executable file");
    }
  }

  private ByteChannel await(Process daemon, long logStart) throws ClientFailure {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (true) {
      ByteChannel ch = connector.connect();
      if (ch != null) return ch;
      // two clients may start a daemon at once: the loser exits, the lock holder is still starting
      if (!daemon.isAlive() && !LockProbe.held(paths.lockFile())) {
        ch = connector.connect();
        if (ch != null) return ch;
        throw notStarted(logStart, "; it exited with code " + daemon.exitValue());
      }
      if (System.nanoTime() > deadline) {
        throw notStarted(logStart, "; no answer in " + timeoutMillis + " ms");
      }
      sleep(POLL_MILLIS);
    }
  }

  /**
   * The failure with what the daemon wrote to its log since {@code logStart}; the daemon's own
   * one-line reason ("gq daemon: ...") first when it wrote one.
   */
  /** How the daemon begins the line that says why it stops. */
  private static final String REASON = "gq daemon: ";

  private ClientFailure notStarted(long logStart, String why) {
    // A full disk leaves the daemon no room even to write why: say it here, in one line.
    String full = DiskRoom.fullNote(paths.dataDir());
    if (full != null) return new ClientFailure("the daemon did not start: " + full + "; free some space there and try again");
    Path log = paths.daemonLog();
    List<String> lines = tail(log, 10, logStart);
    StringBuilder sb = new StringBuilder("the daemon did not start");
    for (int i = lines.size() - 1; i >= 0; i--) {
      if (lines.get(i).startsWith(REASON)) {
        sb.append(": ").append(lines.get(i).substring(REASON.length()));
        break;
      }
    }
    sb.append("; last lines of ").append(log).append(':');
    if (lines.isEmpty()) sb.append("\n(nothing new in it").append(why).append(')');
    for (String line : lines) sb.append('\n').append(line);
    return new ClientFailure(sb.toString());
  }

  /**
   * The last {@code n} lines of a file written after offset {@code from} (all of it if it shrank
   * since), read from its last 64 KiB.
   */
  static List<String> tail(Path file, int n, long from) {
    List<String> lines = new ArrayList<>();
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long begin = f.length() < from ? 0 : from;
      long start = Math.max(begin, f.length() - 65536);
      byte[] bytes = new byte[(int) (f.length() - start)];
      f.seek(start);
      f.readFully(bytes);
      String text = new String(bytes, StandardCharsets.UTF_8);
      int end = text.endsWith("\n") ? text.length() - 1 : text.length();
      while (lines.size() < n && end > 0) {
        int nl = text.lastIndexOf('\n', end - 1);
        if (nl < 0 && start > begin) break;
        lines.add(0, text.substring(nl + 1, end));
        end = nl;
      }
    } catch (IOException e) {
      lines.add("(cannot read it: " + e.getMessage() + ")");
    }
    return lines;
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
