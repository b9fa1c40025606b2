package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk under the data directory: new jobs are refused with a line that says so, a job
 * whose log cannot be written fails with a reason that says so, and the daemon keeps serving.
 * Needs a small tmpfs, so it runs only where the test may mount one (root); skipped otherwise.
 */
class DiskFullEndToEndTest {
  @TempDir Path tmp;
  private Path mount;

  @AfterEach
  void unmount() throws Exception {
    if (mount != null) new ProcessBuilder("umount", "-l", mount.toString()).start().waitFor();
  }

  @Test
  void fullDiskFailsTheAffectedJobWithAReasonAndTheDaemonKeepsServing() throws Exception {
    mount = tmp.resolve("small");
    Files.createDirectories(mount);
    Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString())
        .redirectErrorStream(true).start();
    boolean mounted = m.waitFor() == 0;
    if (!mounted) System.out.println("skipped: cannot mount a tmpfs here: " + new String(m.getInputStream().readAllBytes()));
    assumeTrue(mounted, "needs permission to mount a small tmpfs");
    Path data = mount.resolve("data");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, Map.of("GQ_DATA_DIR", data.toString()))) {
      long writer = g.submit("-g", "0", "bash", "-c", "sleep 1; head -c 20000000 /dev/zero");
      g.awaitState(writer, "RUNNING", Duration.ofSeconds(45));
      // Fill what is left, so the job's output has nowhere to go.
      new ProcessBuilder("bash", "-c", "cat /dev/zero > " + mount.resolve("filler") + " 2>/dev/null; true").start().waitFor();
      JsonNode job = g.awaitState(writer, "FAILED", Duration.ofSeconds(45));
      assertTrue(job.get("failure_reason").asText().contains("is full"), job.toString());
      Gqd.Result refused = g.gq("-g", "0", "true");
      assertEquals(1, refused.code(), refused.toString());
      assertTrue(refused.err().contains("is full"), refused.err());
      assertEquals(0, g.gq("ps", "--all").code(), "the daemon keeps serving");
      Files.delete(mount.resolve("filler"));
      long after = g.submit("-g", "0", "true");
      g.awaitState(after, "DONE", Duration.ofSeconds(45));
    }
  }

  @Test
  void aDaemonThatCannotStartOnAFullDiskIsExplainedInOneLine() throws Exception {
    mount = tmp.resolve("small");
    Files.createDirectories(mount);
    Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString())
        .redirectErrorStream(true).start();
    boolean mounted = m.waitFor() == 0;
    if (!mounted) System.out.println("skipped: cannot mount a tmpfs here: " + new String(m.getInputStream().readAllBytes()));
    assumeTrue(mounted, "needs permission to mount a small tmpfs");
    Path data = mount.resolve("data");
    Files.createDirectories(data);
    new ProcessBuilder("bash", "-c", "cat /dev/zero > " + mount.resolve("filler") + " 2>/dev/null; true").start().waitFor();
    try (Gqd g = new Gqd(tmp.resolve("d"), 1, Map.of("GQ_DATA_DIR", data.toString()))) {
      Path daemon = tmp.resolve("gq-daemon.sh");
      Path shim = Path.of(System.getProperty("user.dir")).resolve("../host/target/gq-shim").normalize();
      Files.writeString(daemon, "#!/bin/sh\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
          + "' --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC -Xmx128m -XX:TieredStopAtLevel=1 -Dgq.shim='" + shim
          + "' -cp '" + System.getProperty("java.class.path") + "' dev.gq.actors.daemon.DaemonMain\n");
      Files.setPosixFilePermissions(daemon, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
      ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), "dev.gq.client.Main", "ps");
      pb.environment().clear();
      pb.environment().putAll(g.env());
      pb.environment().put("GQ_DAEMON_CMD", daemon.toString());
      Path err = tmp.resolve("err");
      pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).redirectError(err.toFile());
      Process client = pb.start();
      assertTrue(client.waitFor(90, java.util.concurrent.TimeUnit.SECONDS), "the client ends");
      assertEquals(1, client.exitValue());
      assertEquals("gq: the daemon did not start: the disk holding " + data + " is full (0 KiB free);"
          + " free some space there and try again\n", Files.readString(err));
    }
  }
}
