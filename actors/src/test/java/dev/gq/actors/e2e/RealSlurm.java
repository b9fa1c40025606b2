package dev.gq.actors.e2e;

import dev.gq.protocol.PrivateDirectory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;

/**
 * A single-node Slurm (munged, slurmctld and slurmd from Debian's packages) for the tests that
 * need a real one: every file in one temporary directory, free ports on 127.0.0.1, no systemd,
 * each daemon a foreground child process stopped by its own pid. The node has {@code gpus} fake
 * GRES GPUs, one {@code File=} each on a character device with the null device's numbers, and
 * twice as many CPUs (at least 8); finished jobs stay in {@code scontrol show job} for
 * {@link #MIN_JOB_AGE_S} seconds; there is no accounting, so a job's GPUs show in {@code
 * JOB_GRES}/{@code GRES} of {@code scontrol -d show job}, not in its TRES (tracking gres/gpu as
 * a TRES needs slurmdbd). Where this machine cannot run it (a program missing, not root) the test
 * is skipped with the reason, or fails when {@code GQ_REQUIRE_SLURM=1} says it must run here.
 */
final class RealSlurm implements AutoCloseable {
  /** How long a finished job stays readable by {@code scontrol show job}. */
  static final int MIN_JOB_AGE_S = 30;
  private static final List<String> PROGRAMS =
      List.of("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "scancel", "mknod");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  final Path dir;
  final Path conf;
  final String node;
  private final Map<String, Path> bin = new HashMap<>();
  private Process munged;
  private Process slurmctld;
  private Process slurmd;
  private boolean controllerStarted;

  /** A finished Slurm command: its exit status and output. */
  record Outcome(int code, String out, String err) {}

  private RealSlurm(Path dir, String node) {
    this.dir = dir;
    this.conf = dir.resolve("slurm.conf");
    this.node = node;
  }

  /** Starts Slurm in {@code dir} (empty or new) and waits until its node is idle. */
  static RealSlurm start(Path dir, int gpus) throws Exception {
    if (PrivateDirectory.myUid() != 0) unavailable("Slurm's daemons run as root here and this test runs as uid " + PrivateDirectory.myUid());
    RealSlurm s = new RealSlurm(dir, RealSlurmFiles.shortHostName());
    for (String p : PROGRAMS) s.bin.put(p, s.find(p));
    try {
      RealSlurmFiles.write(dir, s.node, gpus, MIN_JOB_AGE_S, s.bin.get("mknod"));
      s.startMunge();
      s.startController();
      s.slurmd = s.daemon("slurmd", "slurmd", "-D");
      s.await("the node to be idle", START_TIMEOUT, () -> "idle".equals(s.exec("sinfo", "-h", "-n", s.node, "-o", "%T").out().strip()));
      return s;
    } catch (Throwable t) {
      s.close();
      throw t;
    }
  }

  /** The environment a child needs to use this Slurm (its daemon runs sbatch and squeue itself). */
  Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("SLURM_CONF", conf.toString());
    env.put("PATH", path());
    return env;
  }

  /** Stops slurmctld (by its pid); its state stays in StateSaveLocation, jobs keep running. */
  void stopController() throws InterruptedException {
    stop(slurmctld);
    slurmctld = null;
  }

  /** Starts slurmctld on the saved state and waits until it answers and has heard from the node. */
  void startController() throws Exception {
    // the first start begins with no state (-c); a later one recovers what the last one saved
    slurmctld = controllerStarted ? daemon("slurmctld", "slurmctld", "-D") : daemon("slurmctld", "slurmctld", "-D", "-c");
    controllerStarted = true;
    if (slurmd == null) return;
    await("the controller to answer with the node up", START_TIMEOUT, () -> {
      Outcome o = exec("sinfo", "-h", "-n", node, "-o", "%T");
      return o.code() == 0 && !o.out().isBlank() && !o.out().startsWith("unk") && !o.out().startsWith("down");
    });
  }

  /** Runs a Slurm command with this Slurm's environment; its stdout, or a failure with stderr. */
  String run(String... cmd) {
    Outcome o = exec(cmd);
    if (o.code() != 0) throw new AssertionError(String.join(" ", cmd) + " exited " + o.code() + ": " + o.err() + o.out());
    return o.out();
  }

  /** Runs a Slurm command with this Slurm's environment, whatever its exit status. */
  Outcome exec(String... cmd) {
    List<String> argv = new ArrayList<>(List.of(cmd));
    Path p = bin.get(argv.getFirst());
    if (p != null) argv.set(0, p.toString());
    try {
      ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
      pb.environment().putAll(env());
      Path err = Files.createTempFile(dir, "cmd", ".err");
      pb.redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      Process proc = pb.start();
      String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!proc.waitFor(60, TimeUnit.SECONDS)) {
        proc.destroyForcibly();
        throw new AssertionError(String.join(" ", cmd) + " did not end within 60 s");
      }
      String errText = Files.readString(err);
      Files.delete(err);
      return new Outcome(proc.exitValue(), out, errText);
    } catch (IOException e) {
      throw new AssertionError("cannot run " + String.join(" ", cmd) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted running " + String.join(" ", cmd), e);
    }
  }

  /**
   * One field of {@code scontrol -d show job ID} (e.g. JobState, Reason, ExitCode, JOB_GRES, or
   * GRES of the allocated node), up to the next blank; a failure when the job or field is unknown.
   */
  String jobField(String id, String field) {
    String text = run("scontrol", "-d", "show", "job", id);
    Matcher m = Pattern.compile("(?:^|\\s)" + Pattern.quote(field) + "=(\\S*)").matcher(text);
    if (!m.find()) throw new AssertionError("no " + field + " in scontrol show job " + id + ":\n" + text);
    return m.group(1);
  }

  /** Waits until job {@code id} is in {@code state}; a failure with the job and the logs if not. */
  void awaitJobState(String id, String state, Duration timeout) throws InterruptedException {
    await("job " + id + " to be " + state, timeout, () -> state.equals(jobField(id, "JobState")));
  }

  /** The last lines of every log of this Slurm, for failure messages. */
  String logs() {
    StringBuilder sb = new StringBuilder();
    for (String f : List.of("munged.out", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log")) {
      try {
        List<String> lines = Files.readAllLines(dir.resolve(f), StandardCharsets.ISO_8859_1);
        sb.append("--- ").append(f).append('\n');
        for (String l : lines.subList(Math.max(0, lines.size() - 15), lines.size())) sb.append(l).append('\n');
      } catch (IOException e) {
        sb.append("--- ").append(f).append(": none\n");
      }
    }
    return sb.toString();
  }

  /** Cancels this Slurm's jobs, then stops slurmd, slurmctld and munged, each by its pid. */
  @Override
  public void close() throws InterruptedException {
    if (slurmctld != null && slurmctld.isAlive()) exec("scancel", "--user", "root");
    // slurmd ends in about 2 s while its controller is up (much later without); then slurmctld
    // (about 2 s) and munged together
    stop(slurmd);
    if (munged != null) munged.destroy();
    stop(slurmctld);
    stop(munged);
    slurmd = slurmctld = munged = null;
    // A job step left behind (its controller was stopped, or a kill was slow) carries this Slurm's
    // SLURM_CONF in its environment: slurmstepd and the jobs it started, never anything else.
    for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
      try {
        String env = Files.readString(Path.of("/proc", String.valueOf(p.pid()), "environ"), StandardCharsets.ISO_8859_1);
        if (env.contains("SLURM_CONF=" + conf + "\0")) p.destroyForcibly();
      } catch (IOException | RuntimeException ignored) {
        // gone or not readable: not one of ours
      }
    }
  }

  private void startMunge() throws Exception {
    munged = daemon("munged", "munged", "-F", "--socket=" + dir.resolve("munge/munge.sock"),
        "--key-file=" + dir.resolve("munge.key"), "--pid-file=" + dir.resolve("munged.pid"),
        "--log-file=" + dir.resolve("munged.log"), "--seed-file=" + dir.resolve("munged.seed"));
    await("munged's socket", START_TIMEOUT, () -> Files.exists(dir.resolve("munge/munge.sock")));
  }

  private Process daemon(String log, String... cmd) throws IOException {
    List<String> argv = new ArrayList<>(List.of(cmd));
    argv.set(0, bin.get(cmd[0]).toString());
    ProcessBuilder pb = new ProcessBuilder(argv).directory(dir.toFile());
    pb.environment().putAll(env());
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(log + ".out").toFile()));
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    return pb.start();
  }

  private static void stop(Process p) throws InterruptedException {
    if (p == null || !p.isAlive()) return;
    p.destroy();
    if (!p.waitFor(15, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      p.waitFor(15, TimeUnit.SECONDS);
    }
  }

  /** Waits for {@code cond}; a failure with the logs' tails when it times out or a daemon exits. */
  private void await(String what, Duration timeout, BooleanSupplier cond) throws InterruptedException {
    try {
      Gqd.await(what, timeout, () -> {
        exited("munged", munged);
        exited("slurmctld", slurmctld);
        exited("slurmd", slurmd);
        return cond.getAsBoolean();
      });
    } catch (AssertionError e) {
      throw new AssertionError("Slurm in " + dir + ": " + e.getMessage() + "\n" + logs(), e);
    }
  }

  private static void exited(String name, Process p) {
    if (p != null && !p.isAlive()) throw new AssertionError(name + " exited " + p.exitValue());
  }

  private Path find(String program) {
    for (String d : path().split(":")) {
      Path p = Path.of(d.isEmpty() ? "." : d, program);
      if (Files.isExecutable(p)) return p;
    }
    unavailable("`" + program + "` is not installed (Debian: apt-get install slurm-wlm slurmctld slurmd slurm-client munge)");
    return null;
  }

  private static String path() {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String sbin : List.of("/usr/sbin", "/sbin")) if (!(":" + path + ":").contains(":" + sbin + ":")) path += ":" + sbin;
    return path;
  }



  /** Skips the test with {@code reason}, or fails it where Slurm is required (GQ_REQUIRE_SLURM=1). */
  static void unavailable(String reason) {
    if ("1".equals(System.getenv("GQ_REQUIRE_SLURM"))) throw new AssertionError("Slurm is required here (GQ_REQUIRE_SLURM=1) but " + reason);
    Assumptions.abort("no real Slurm: " + reason);
  }
}
