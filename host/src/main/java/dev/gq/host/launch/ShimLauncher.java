package dev.gq.host.launch;

import dev.gq.core.launch.LaunchException;
import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.launch.Launcher;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessTable;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The real {@link Launcher}: starts {@code gq-shim EXITFILE ARGV...} with the job's directory and
 * exactly the job's environment, the GPU leases' descriptors as 3, 4, ... (with {@code --leases=N};
 * through ProcessBuilder they cannot be passed, and the daemon alone holds them while it lives),
 * stdin from /dev/null and stdout+stderr appended to the 0600 log
 * through one open file, never through a symbolic link (O_NOFOLLOW). The shim leads its own session (spawned as one with posix_spawn, or it
 * makes itself one where the launcher falls back to ProcessBuilder), so the job's identity is the
 * shim's pid as pid, process group and session, with its /proc start ticks and the boot id.
 * Called by the JobRunner, off the actor threads.
 */
public final class ShimLauncher implements Launcher {

  private static final long SESSION_WAIT_NANOS = 2_000_000_000L;
  private static final File DEV_NULL = new File("/dev/null");
  // A thread that only waits in waitpid(2) needs little stack (the JDK gives its reaper 128 KiB).
  private static final long WAITER_STACK_BYTES = 256 * 1024;

  private final Path shim;
  private final ProcessTable table;
  private final boolean direct;

  /** {@code shim}: the built gq-shim binary; {@code table}: where start ticks are read. */
  public ShimLauncher(Path shim, ProcessTable table) {
    this(shim, table, PosixSpawn.AVAILABLE);
  }

  /** {@code direct}: spawn the shim with posix_spawn, else through ProcessBuilder (tests both). */
  ShimLauncher(Path shim, ProcessTable table, boolean direct) {
    this.shim = shim;
    this.table = table;
    this.direct = direct;
  }

  @Override
  public LaunchedProcess launch(LaunchSpec spec) throws LaunchException {
    if (spec.argv().isEmpty()) throw new LaunchException("job " + spec.jobId() + " has no command to run");
    checkDirectory(spec.cwd());
    prepareFiles(spec);
    checkCommand(spec);
    if (direct) return spawn(spec);
    Process process = start(spec);
    ProcessIdentity identity = identify(process);
    CompletableFuture<Integer> exited = process.onExit().thenApply(p -> p.exitValue() < 128 ? p.exitValue() : null);
    return new LaunchedProcess(identity, exited);
  }

  private static void checkDirectory(Path cwd) throws LaunchException {
    if (!Files.exists(cwd)) throw new LaunchException("working directory " + cwd + " no longer exists");
    if (!Files.isDirectory(cwd)) throw new LaunchException("working directory " + cwd + " is not a directory");
  }

  /** Fails the launch at once, with the shim's words in the log, when the command cannot be run. */
  private static void checkCommand(LaunchSpec spec) throws LaunchException {
    String problem = CommandLookup.problem(spec.argv().get(0), spec.env().get("PATH"), spec.cwd(), spec.env().get("VIRTUAL_ENV"));
    if (problem == null) return;
    try {
      Files.writeString(spec.logFile(), "gq: " + problem + "\n", StandardCharsets.UTF_8,
          StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      // the job's failure reason says it all the same
    }
    throw new LaunchException(problem, 127);
  }

  private static void prepareFiles(LaunchSpec spec) throws LaunchException {
    try {
      createPrivateDirectories(spec.logFile().toAbsolutePath().getParent());
      createPrivateDirectories(spec.exitFile().toAbsolutePath().getParent());
      // A record left by an earlier run under this name must not pass for this run's.
      Files.deleteIfExists(spec.exitFile());
      createLog(spec.logFile());
      if (spec.note() != null)
        Files.writeString(spec.logFile(), "gq: " + spec.note() + "\n", StandardCharsets.UTF_8,
            StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS);
    } catch (IOException e) {
      throw new LaunchException("cannot prepare the files of job " + spec.jobId() + ": " + describe(e), e);
    }
  }

  private static void createPrivateDirectories(Path dir) throws IOException {
    if (dir != null && !Files.isDirectory(dir)) {
      Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }
  }

  private static void createLog(Path log) throws IOException {
    try {
      Files.createFile(log, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    } catch (FileAlreadyExistsException e) {
      // appended to: a retried launch keeps what the earlier attempt wrote; but never through a link
      // (the spawn opens it with O_NOFOLLOW too; this check gives the reason in words)
      if (!Files.isRegularFile(log, LinkOption.NOFOLLOW_LINKS)) {
        throw new FileSystemException(log.toString(), null,
            "not a plain file (a symbolic link or other file planted there); gq does not write through it; remove it");
      }
    }
  }

  private List<String> command(LaunchSpec spec) {
    List<String> command = new ArrayList<>(spec.argv().size() + 2);
    command.add(shim.toAbsolutePath().toString());
    if (direct && !spec.leaseFds().isEmpty()) command.add("--leases=" + spec.leaseFds().size());
    command.add(spec.exitFile().toAbsolutePath().toString()); // the shim runs in the job's directory
    command.addAll(spec.argv());
    return command;
  }

  /**
   * Spawns the shim directly (no helper process in between) as a session leader; its identity can
   * be read at once, since it led its session before its exec, and it stays readable until the
   * thread that waits for it has reaped it.
   */
  private LaunchedProcess spawn(LaunchSpec spec) throws LaunchException {
    int pid;
    try {
      pid = PosixSpawn.spawn(command(spec), spec.env(), spec.cwd(), spec.logFile(), spec.leaseFds());
    } catch (PosixSpawn.SpawnException e) {
      throw new LaunchException("cannot start job " + spec.jobId() + " with " + shim + ": " + e.getMessage(), e);
    }
    String bootId = table.bootId();
    ProcessIdentity identity = identity(pid, table.info(pid).map(ProcInfo::startTicks).orElse(-1L), bootId);
    CompletableFuture<Integer> exited = new CompletableFuture<>();
    Thread.ofPlatform().daemon().name("gq-shim-wait-" + pid).stackSize(WAITER_STACK_BYTES).start(() ->
        exited.complete(PosixSpawn.waitFor(pid)));
    return new LaunchedProcess(identity, exited);
  }

  private Process start(LaunchSpec spec) throws LaunchException {
    List<String> command = command(spec);
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(spec.cwd().toFile())
        .redirectInput(ProcessBuilder.Redirect.from(DEV_NULL))
        .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.logFile().toFile()))
        .redirectErrorStream(true); // one open file for both streams: one O_APPEND offset
    try {
      builder.environment().clear();
      builder.environment().putAll(spec.env());
      return builder.start();
    } catch (IOException | IllegalArgumentException e) {
      throw new LaunchException("cannot start job " + spec.jobId() + " with " + shim + ": " + oneLine(e), e);
    }
  }

  /**
   * Reads the shim's start ticks once it leads its own session. When the shim has already exited
   * (a command that ends at once), its ticks cannot be read any more: they are recorded as -1,
   * which matches no process, while the exit file still tells how the job ended.
   */
  private ProcessIdentity identify(Process process) throws LaunchException {
    long pid = process.pid();
    String bootId = table.bootId();
    long deadline = System.nanoTime() + SESSION_WAIT_NANOS;
    while (true) {
      Optional<ProcInfo> info = table.info(pid);
      if (info.isPresent() && info.get().sid() == pid) return identity(pid, info.get().startTicks(), bootId);
      if (info.isEmpty() && !process.isAlive()) return identity(pid, -1, bootId);
      if (System.nanoTime() > deadline) {
        process.destroyForcibly();
        throw new LaunchException("the job shim " + shim + " did not start a new session (pid " + pid + ")");
      }
      pause();
    }
  }

  private static ProcessIdentity identity(long pid, long startTicks, String bootId) {
    return new ProcessIdentity(pid, pid, pid, startTicks, bootId);
  }

  private static void pause() {
    try {
      Thread.sleep(1);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static String describe(IOException e) {
    if (e instanceof AccessDeniedException) return e.getMessage() + ": permission denied";
    if (e instanceof NoSuchFileException) return e.getMessage() + ": no such file or directory";
    if (e instanceof FileSystemException f && f.getReason() != null) return f.getFile() + ": " + f.getReason();
    return oneLine(e);
  }

  private static String oneLine(Exception e) {
    String message = e.getMessage() == null ? e.toString() : e.getMessage();
    return message.replace('\n', ' ');
  }
}
