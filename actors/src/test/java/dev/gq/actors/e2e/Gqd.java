package dev.gq.actors.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gq.cli.JsonOutputs;
import dev.gq.protocol.ClientRequest;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The real gq daemon as a child process on temporary directories with fake GPUs, for end-to-end
 * tests. Commands are sent over its real socket with the real protocol, as the client does.
 */
final class Gqd implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Path CHECKOUT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
  private static final String TEST_CLASS_PATH = System.getProperty("java.class.path");
  /**
   * Whether daemons start as users start them: through bin/gq-daemon, from the built jars, with an
   * AOT cache made once for the run (about half the start-up of a daemon on class directories).
   * Set where the jars hold the code under test: the failsafe run, after the package phase. Tests
   * run by name in the test phase start the daemon from the class directories.
   */
  private static final boolean LAUNCHER = Boolean.getBoolean("gq.e2e.launcher");
  private static boolean cacheLookedAt;

  final Path root;
  final Path fake;
  final Path data;
  final Path run;
  final Path work;
  private final Map<String, String> extraEnv;
  private Process daemon;
  /** Words put before the daemon's command line (e.g. a shell that lowers a limit first). */
  List<String> wrapper = List.of();
  /** Where the daemon's output is appended. */
  Path output;
  /** Whether the commands sent say that their stderr is a terminal. */
  boolean stderrTty;
  /**
   * The daemon's class path (another user's daemon gets copies it can read); as it is, the daemon
   * starts through bin/gq-daemon where the jars are built (see LAUNCHER).
   */
  String classPath = TEST_CLASS_PATH;

  /** A result of one gq invocation. */
  record Result(int code, String out, String err) {
    /**
     * The result of {@code argv}, its JSON output (when it asked for one with {@code --json})
     * first checked against the published schema in docs/schemas: every JSON output these tests see
     * must match it.
     */
    static Result checked(String[] argv, int code, String out, String err) {
      JsonOutputs.checkOutput(List.of(argv), code, out);
      return new Result(code, out, err);
    }

    JsonNode json() {
      try {
        return JSON.readTree(out);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + out + " / " + err, e);
      }
    }
  }

  Gqd(Path root, int gpus, Map<String, String> extraEnv) throws IOException {
    this.root = root;
    this.fake = root.resolve("fake");
    this.data = root.resolve("data");
    this.run = root.resolve("run");
    this.work = root.resolve("work");
    this.extraEnv = extraEnv;
    this.output = root.resolve("daemon.out");
    Files.createDirectories(fake.resolve("procs"));
    Files.createDirectories(work);
    StringBuilder sb = new StringBuilder("# index uuid MiB name\n");
    for (int i = 0; i < gpus; i++) {
      sb.append(i).append(' ').append(uuid(i)).append(" 81920 Fake GPU ").append(i).append('\n');
      Files.createDirectories(fake.resolve("procs").resolve(uuid(i)));
    }
    Files.writeString(fake.resolve("gpus"), sb);
  }

  static Gqd start(Path root, int gpus) throws Exception {
    return start(root, gpus, Map.of());
  }

  static Gqd start(Path root, int gpus, Map<String, String> extraEnv) throws Exception {
    Gqd g = new Gqd(root, gpus, extraEnv);
    g.startDaemon();
    return g;
  }

  static String uuid(int i) {
    return "GPU-fake-" + i;
  }

  Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("HOME", root.toString());
    env.put("GQ_DATA_DIR", data.toString());
    env.put("GQ_RUNTIME_DIR", run.toString());
    env.put("GQ_FAKE_NVML", fake.toString());
    env.put("GQ_POLL_INTERVAL_MS", "100");
    env.put("GQ_CANCEL_GRACE_MS", "1500");
    env.put("GQ_LIVENESS_POLL_MS", "50");
    env.putAll(extraEnv);
    return env;
  }

  void startDaemon() throws Exception {
    daemon = daemonProcess();
    try {
      await("the daemon to answer", Duration.ofSeconds(90), () -> {
        if (!daemon.isAlive()) throw new AssertionError("daemon exited " + daemon.exitValue() + ": " + daemonLog());
        return ping();
      });
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\ndaemon log:\n" + daemonLog() + "\nthreads:\n" + threads(), e);
    }
  }

  /** Starts a daemon process without waiting for it (for tests of refused starts). */
  Process daemonProcess() throws IOException {
    boolean launcher = LAUNCHER && classPath.equals(TEST_CLASS_PATH);
    List<String> cmd = new ArrayList<>(wrapper);
    if (launcher) {
      makeCacheOnce();
      cmd.add(CHECKOUT.resolve("bin/gq-daemon").toString());
    } else {
      cmd.addAll(javaCommand());
    }
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().clear();
    pb.environment().putAll(env());
    if (launcher) pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    Files.createDirectories(data);
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    return pb.start();
  }

  /** The daemon's command line on {@link #classPath}. */
  private List<String> javaCommand() {
    Path shim = CHECKOUT.resolve("host/target/gq-shim");
    List<String> cmd = new ArrayList<>();
    cmd.addAll(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--enable-native-access=ALL-UNNAMED",
        Runtime.version().feature() >= 23 ? "--sun-misc-unsafe-memory-access=allow" : "-Dgq.jdk.old=true",
        "-XX:+UseSerialGC", "-Xmx128m", "-XX:TieredStopAtLevel=1",
        "-Dgq.shim=" + shim));
    // the build's copy of sqlite's native library, as bin/gq-daemon passes it (else each daemon copies
    // it into /tmp, a megabyte a start, left there by a killed one); not for another user's daemon
    // (copies of the class path), who may not read the build's folder
    Path sqliteLib = classPath.equals(TEST_CLASS_PATH) ? builtSqliteLib() : null;
    if (sqliteLib != null) cmd.addAll(List.of("-Dorg.sqlite.lib.path=" + sqliteLib, "-Dorg.sqlite.lib.name=libsqlitejdbc.so"));
    cmd.addAll(List.of("-cp", classPath, "dev.gq.actors.daemon.DaemonMain"));
    return cmd;
  }

  /**
   * Makes the daemon's AOT cache next to the built jars ({@code bin/gq-daemon --train}) once a run,
   * unless one newer than every jar is there; a daemon starts without one when this fails. The test
   * JVMs that run at once take turns through a lock on a file beside it: the first makes the cache,
   * the others wait for it and then find it fresh.
   */
  private static synchronized void makeCacheOnce() {
    if (cacheLookedAt || Runtime.version().feature() < 25) return;
    cacheLookedAt = true;
    Path jars = CHECKOUT.resolve("actors/target");
    try (FileChannel lock = FileChannel.open(jars.resolve("gq-daemon.aot.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock held = lock.lock()) {
      makeCache(jars);
    } catch (IOException e) {
      System.err.println("end-to-end daemons: no AOT cache: " + e);
    }
  }

  private static void makeCache(Path jars) {
    Path cache = jars.resolve("gq-daemon.aot");
    try {
      if (Files.isRegularFile(cache) && !newerThan(jars.resolve("gq-daemon.jar"), cache)) {
        boolean stale = false;
        try (var lib = Files.list(jars.resolve("lib"))) {
          for (Path jar : lib.toList()) stale |= newerThan(jar, cache);
        }
        if (!stale) return;
      }
      long t0 = System.nanoTime();
      ProcessBuilder pb = new ProcessBuilder(CHECKOUT.resolve("bin/gq-daemon").toString(), "--train");
      pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
      Path out = jars.resolve("gq-daemon-train.out");
      Process p = pb.redirectErrorStream(true).redirectOutput(out.toFile()).start();
      boolean done = p.waitFor(180, TimeUnit.SECONDS);
      if (!done) p.destroyForcibly();
      System.err.printf("end-to-end daemons: %s the AOT cache in %d s (%s)%n", done && p.exitValue() == 0 ? "made" : "could not make",
          (System.nanoTime() - t0) / 1_000_000_000L, out);
    } catch (IOException e) {
      System.err.println("end-to-end daemons: no AOT cache: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean newerThan(Path a, Path b) throws IOException {
    return Files.getLastModifiedTime(a).compareTo(Files.getLastModifiedTime(b)) > 0;
  }

  private static Path builtSqliteLib() {
    String arch = switch (System.getProperty("os.arch")) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64" -> "aarch64";
      default -> null;
    };
    if (arch == null) return null;
    Path dir = Path.of(System.getProperty("user.dir"), "target/sqlite/org/sqlite/native/Linux", arch);
    return Files.isRegularFile(dir.resolve("libsqlitejdbc.so")) ? dir : null;
  }

  String daemonLog() {
    try {
      return Files.readString(output);
    } catch (IOException e) {
      return "(no daemon log)";
    }
  }

  boolean ping() {
    try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      c.connect(UnixDomainSocketAddress.of(run.resolve("gq.sock")));
      new LineWriter(c).write(new ClientRequest.Ping().toJson());
      return new LineReader(c).readLine() != null;
    } catch (IOException e) {
      return false;
    }
  }

  /** Runs one gq command line in the work directory, as the client would. */
  Result gq(String... argv) {
    return gqIn(work, argv);
  }

  Result gqIn(Path cwd, String... argv) {
    return gqWith(cwd, env(), argv);
  }

  /** Runs one gq command line from a client whose environment is {@code clientEnv} (the daemon keeps its own). */
  Result gqWith(Path cwd, Map<String, String> clientEnv, String... argv) {
    try (SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX)) {
      c.connect(UnixDomainSocketAddress.of(run.resolve("gq.sock")));
      var req = new ClientRequest.Run(UUID.randomUUID().toString(), List.of(argv), cwd.toString(), clientEnv, false, false, stderrTty, 200);
      try {
        new LineWriter(c).write(req.toJson());
      } catch (IOException e) {
        // as the client does: the daemon may have refused the request and closed; its frames say why
      }
      LineReader r = new LineReader(c);
      StringBuilder out = new StringBuilder(), err = new StringBuilder();
      for (String line; (line = r.readLine()) != null; ) {
        switch (Frame.decode(line)) {
          case Frame.Out o -> out.append(o.text());
          case Frame.OutBytes b -> out.append(new String(b.bytes(), java.nio.charset.StandardCharsets.UTF_8));
          case Frame.Err e -> err.append(e.text());
          case Frame.Exit x -> { return Result.checked(argv, x.code(), out.toString(), err.toString()); }
          default -> { }
        }
      }
      throw new AssertionError("no exit frame; out=" + out + " err=" + err + "\n" + daemonLog());
    } catch (IOException e) {
      throw new AssertionError("cannot talk to the daemon: " + e + "\n" + daemonLog(), e);
    }
  }

  /** Submits and returns the job id. */
  long submit(String... argv) {
    Result r = gq(argv);
    if (r.code() != 0) throw new AssertionError("submit failed: " + r);
    String s = r.out().strip();
    return Long.parseLong(s.substring(s.lastIndexOf(' ') + 1));
  }

  JsonNode job(long id) {
    Result r = gq("show", "--json", String.valueOf(id));
    if (r.code() != 0) throw new AssertionError("show failed: " + r);
    return r.json();
  }

  String state(long id) {
    return job(id).get("state").asText();
  }

  JsonNode awaitState(long id, String state, Duration timeout) throws InterruptedException {
    try {
      await("job " + id + " to be " + state, timeout, () -> state.equals(state(id)));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; job: " + job(id) + "\nGPUs: " + gpus() + "\nprocesses: "
          + processes() + "\ndaemon log:\n" + daemonLog(), e);
    }
    return job(id);
  }

  private String threads() {
    try {
      Path jstack = Path.of(System.getProperty("java.home"), "bin", "jstack");
      Process p = new ProcessBuilder(jstack.toString(), String.valueOf(daemon.pid())).redirectErrorStream(true).start();
      return new String(p.getInputStream().readAllBytes());
    } catch (IOException e) {
      return e.toString();
    }
  }

  private String processes() {
    try {
      Process p = new ProcessBuilder("ps", "-eo", "pid,ppid,pgid,sid,stat,args").redirectErrorStream(true).start();
      return new String(p.getInputStream().readAllBytes());
    } catch (IOException e) {
      return e.toString();
    }
  }

  /**
   * Waits until the daemon gives {@code why} as the reason job {@code id} waits (in {@code gq
   * show}). The reason is the daemon's placement plan on the state as it is now, so once it names
   * {@code why} the daemon has decided, on that state, not to start the job.
   */
  void awaitWaitReason(long id, String why) throws InterruptedException {
    String[] last = {""};
    try {
      await("job " + id + " to wait because of \"" + why + "\"", Duration.ofSeconds(45),
          () -> (last[0] = gq("show", String.valueOf(id)).out()).contains(why));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; gq show: " + last[0] + "\ndaemon log:\n" + daemonLog(), e);
    }
  }

  /**
   * Submits a CPU-only job and waits until it is DONE; returns its id. Whatever the daemon wrote
   * before that submission (an end and what follows from it) can then be read back.
   */
  long awaitMarkerJob() throws InterruptedException {
    long marker = submit("-g", "0", "true");
    awaitState(marker, "DONE", Duration.ofSeconds(45));
    return marker;
  }

  JsonNode gpus() {
    return gq("gpu", "--json").json();
  }

  String gpuState(int index) {
    for (JsonNode g : gpus()) if (g.get("index").asInt() == index) return g.get("state").asText();
    throw new AssertionError("no GPU " + index);
  }

  static void await(String what, Duration timeout, BooleanSupplier cond) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (!cond.getAsBoolean()) {
      if (System.nanoTime() > end) throw new AssertionError("timed out waiting for " + what);
      Thread.sleep(25);
    }
  }

  /** As {@link #await}, with this daemon's log in the failure. */
  void awaitLogged(String what, Duration timeout, BooleanSupplier cond) throws InterruptedException {
    try {
      await(what, timeout, cond);
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\ndaemon log:\n" + daemonLog(), e);
    }
  }

  /** Stops the daemon the way a user does; jobs keep running. */
  void stopDaemon() throws Exception {
    gq("daemon", "stop");
    if (!daemon.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) throw new AssertionError("daemon did not stop");
  }

  void killDaemon() throws InterruptedException {
    daemon.destroyForcibly();
    daemon.waitFor();
  }

  Process process() {
    return daemon;
  }

  @Override
  public void close() throws Exception {
    if (daemon != null && daemon.isAlive()) killDaemon();
    // Leave no job behind: kill every process that carries this test's data dir in its environment.
    for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
      try {
        String env = Files.readString(Path.of("/proc", String.valueOf(p.pid()), "environ"));
        if (env.contains("GQ_DATA_DIR=" + data + "\0") || env.contains("GQ_FAKE_NVML=" + fake + "\0")) p.destroyForcibly();
      } catch (IOException | RuntimeException ignored) {
        // gone or not ours
      }
    }
  }
}
