package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real client process (the native gq): starts the daemon on demand, submits, reports status, stops it. */
class ClientEndToEndTest {
  @TempDir Path tmp;

  record Out(int code, String out, String err) {}

  @Test
  void clientStartsTheDaemonOnDemandAndStopsIt() throws Exception {
    try (Gqd g = new Gqd(tmp, 1, java.util.Map.of())) {
      Path script = daemonScript(g);
      Out status = client(g, script, "daemon", "status");
      assertEquals(1, status.code(), status.toString());
      assertTrue(status.out().contains("not running"), status.toString());

      Out submit = client(g, script, "-g", "0", "echo", "hello from a job");
      assertEquals(0, submit.code(), submit + "\n" + g.daemonLog());
      assertEquals("Submitted job 1\n", submit.out());
      Gqd.await("job 1 done", Duration.ofSeconds(45), () -> client(g, script, "show", "1").out().contains("DONE"));
      assertEquals("hello from a job\n", client(g, script, "logs", "1").out());

      Out running = client(g, script, "daemon", "status");
      assertEquals(0, running.code());
      assertTrue(running.out().contains("is running"), running.toString());
      assertTrue(running.out().contains("fake"), "status says plainly that GPUs are fake: " + running);

      Out stop = client(g, script, "daemon", "stop");
      assertEquals(0, stop.code(), stop.toString());
      assertEquals(1, client(g, script, "daemon", "status").code(), "stopped");
    }
  }

  @Test
  void usageErrorExitsTwoWithOneLine() throws Exception {
    try (Gqd g = new Gqd(tmp, 1, java.util.Map.of())) {
      Path script = daemonScript(g);
      Out bad = client(g, script, "ps", "12-3");
      assertEquals(2, bad.code(), bad.toString());
      assertTrue(bad.err().contains("12-3"), bad.err());
      client(g, script, "daemon", "stop");
    }
  }

  @Test
  void submitFromADeletedWorkingDirectorySaysSoInOneLine() throws Exception {
    Path root = Path.of(System.getProperty("user.dir")).getParent();
    Path launcher = root.resolve("bin/gq");
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isRegularFile(root.resolve("client/target/gq")),
        "the client is not built in this reactor run (bin/gq needs client/target)");
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path script = daemonScript(g);
      Path gone = g.root.resolve("gone");
      ProcessBuilder pb = new ProcessBuilder("bash", "-c",
          "mkdir \"$1\" && cd \"$1\" && rmdir \"$1\" && exec \"$2\" -g 0 true", "sh",
          gone.toString(), launcher.toString());
      pb.environment().putAll(g.env());
      pb.environment().remove("PWD");
      pb.environment().put("GQ_DAEMON_CMD", script.toString());
      Path err = g.root.resolve("gone.err");
      pb.redirectErrorStream(false).redirectError(err.toFile()).redirectOutput(g.root.resolve("gone.out").toFile());
      Process p = pb.start();
      assertTrue(p.waitFor(90, TimeUnit.SECONDS), "client hung");
      List<String> lines = Files.readAllLines(err).stream()
          .filter(l -> !l.contains("getcwd")).toList();  // the shell's own warning, before gq runs
      assertEquals(1, p.exitValue(), lines.toString());
      assertEquals(List.of("gq: the working directory " + gone
          + " no longer exists; cd somewhere that exists and submit again"), lines);
    }
  }

  /** A GQ_DAEMON_CMD that runs the daemon from the test class path. */
  static Path daemonScript(Gqd g) throws Exception {
    Path shim = Path.of(System.getProperty("user.dir")).resolve("../host/target/gq-shim").normalize();
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String unsafe = Runtime.version().feature() >= 23 ? "--sun-misc-unsafe-memory-access=allow" : "";
    String body = "#!/bin/sh\nexec '" + java + "' --enable-native-access=ALL-UNNAMED " + unsafe
        + " -XX:+UseSerialGC -Xmx128m -XX:TieredStopAtLevel=1 -Dgq.shim='" + shim + "' -cp '"
        + System.getProperty("java.class.path") + "' dev.gq.actors.daemon.DaemonMain\n";
    Path p = g.root.resolve("gq-daemon.sh");
    Files.writeString(p, body);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  private static Out client(Gqd g, Path daemonScript, String... argv) {
    try {
      List<String> cmd = new ArrayList<>(List.of(NativeClient.binary().toString()));
      cmd.addAll(List.of(argv));
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(g.work.toFile());
      pb.environment().clear();
      pb.environment().putAll(g.env());
      pb.environment().put("GQ_DAEMON_CMD", daemonScript.toString());
      pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      Path out = Files.createTempFile(g.root, "out", ".txt"), err = Files.createTempFile(g.root, "err", ".txt");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("client hung: " + String.join(" ", argv));
      }
      return new Out(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
