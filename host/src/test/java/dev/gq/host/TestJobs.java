package dev.gq.host;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchException;
import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.host.launch.ExitFiles;
import dev.gq.host.launch.ShimLauncher;
import dev.gq.host.libc.Libc;
import dev.gq.host.proc.ProcFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Starts real jobs through the built shim in a temp directory, and kills what is left after each test. */
public final class TestJobs implements AutoCloseable {

  public static final Path SHIM = Path.of(System.getProperty("gq.shim", "target/gq-shim")).toAbsolutePath();

  public final ProcFs proc = new ProcFs();
  public final ShimLauncher launcher = new ShimLauncher(SHIM, proc);
  private final Path dir;
  private final List<Long> groups = new ArrayList<>();
  private long nextId = 1;

  public TestJobs(Path dir) {
    this.dir = dir;
  }

  public static Map<String, String> pathOnly() {
    return Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
  }

  public LaunchSpec spec(String... argv) {
    long id = nextId++;
    return new LaunchSpec(id, List.of(argv), dir, pathOnly(), log(id), exitFile(id));
  }

  public Path log(long id) {
    return dir.resolve("logs").resolve(id + ".log");
  }

  public Path exitFile(long id) {
    return dir.resolve("run").resolve(id + ".exit");
  }

  public LaunchedProcess launch(LaunchSpec spec) throws LaunchException {
    LaunchedProcess launched = launcher.launch(spec);
    groups.add(launched.identity().pgid());
    return launched;
  }

  /**
   * Launches, waits for the shim to exit, checks that the exit record it wrote names the shim's pid
   * (the launched identity's), and returns the record without it: how the command ended.
   */
  public ExitRecord run(LaunchSpec spec) throws Exception {
    LaunchedProcess launched = launch(spec);
    launched.shimExited().get(20, TimeUnit.SECONDS);
    ExitRecord r = ExitFiles.read(spec.exitFile()).orElseThrow(() -> new AssertionError("no exit record"));
    if (r.pid() == null || r.pid() != launched.identity().pid())
      throw new AssertionError("the record names pid " + r.pid() + ", not the shim's " + launched.identity().pid());
    return r.withPid(null);
  }

  public static String read(Path file) throws IOException {
    return Files.readString(file);
  }

  /** Polls {@code condition} every few milliseconds until it holds, failing after {@code timeout}. */
  public static void await(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
    }
  }

  /** Whether some live member of {@code pgid} runs {@code comm}. */
  public boolean groupRuns(long pgid, String comm) {
    return proc.members(pgid, pgid).stream().anyMatch(p -> p.comm().equals(comm));
  }

  public static boolean alive(long pid) {
    return new ProcFs().info(pid).map(p -> !p.zombie()).orElse(false);
  }

  public static void killQuietly(long pid) {
    try {
      Libc.kill(pid, 9);
    } catch (RuntimeException e) {
      // already gone
    }
  }

  @Override
  public void close() {
    for (long pgid : groups) killQuietly(-pgid);
  }
}
