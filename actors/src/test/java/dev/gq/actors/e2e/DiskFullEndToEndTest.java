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
  void aJobThatEndsWhileTheJournalCannotBeWrittenIsRecordedWithItsStatusThroughTheReserve() throws Exception {
    Path data = mountSmallDisk().resolve("data");
    Path go = tmp.resolve("go");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1, Map.of("GQ_DATA_DIR", data.toString()))) {
      assertTrue(Files.exists(data.resolve(".reserve")), "the daemon keeps a reserve");
      long job = g.submit("-g", "1", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.1; done; exit 5");
      g.awaitState(job, "RUNNING", Duration.ofSeconds(45));
      fill();
      // A request that must be written is refused at once, in one line, and the status says why.
      Gqd.Result hold = g.gq("hold", "--all");
      assertEquals(1, hold.code(), hold.toString());
      assertTrue(hold.err().startsWith("gq: cannot write the journal (" + data.resolve("gq.db") + "): the disk holding "),
          hold.err());
      assertTrue(hold.err().endsWith("; nothing was changed: free some space there and try again\n"), hold.err());
      Gqd.Result status = g.gq("daemon", "status");
      assertTrue(status.out().contains("\nJournal:   cannot be written since "), status.out());
      // The job ends while the disk is still full: its end is written in the reserve's room, with
      // the status its shim passed on (its exit record could not be written).
      Files.writeString(go, "");
      JsonNode ended = g.awaitState(job, "FAILED", Duration.ofSeconds(45));
      assertEquals(5, ended.get("exit_code").asInt(), ended.toString());
      assertTrue(ended.get("failure_reason").asText().contains("its exit record could not be written"), ended.toString());
      assertFalse(Files.exists(data.resolve(".reserve")), "the reserve was given up for the end");
      Files.delete(mount.resolve("filler"));
      long after = g.submit("-g", "1", "true");
      g.awaitState(after, "DONE", Duration.ofSeconds(45));
      // made on the daemon's blocking threads as the job starts: looked for until it is there, 10 s at most
      long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (!Files.exists(data.resolve(".reserve")) && System.nanoTime() < until) Thread.onSpinWait();
      assertTrue(Files.exists(data.resolve(".reserve")), "the reserve is made again once there is room, for the next full disk");
      assertFalse(g.gq("daemon", "status").out().contains("Journal:"), "the journal takes writes again");
      assertEquals(0, g.gq("hold", "--all").code(), "a request is written again");
    }
  }

  /** Mounts an 8 MiB tmpfs at {@code tmp/small}, or skips the test where that is not allowed. */
  private Path mountSmallDisk() throws Exception {
    mount = tmp.resolve("small");
    Files.createDirectories(mount);
    Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", mount.toString())
        .redirectErrorStream(true).start();
    boolean mounted = m.waitFor() == 0;
    if (!mounted) System.out.println("skipped: cannot mount a tmpfs here: " + new String(m.getInputStream().readAllBytes()));
    assumeTrue(mounted, "needs permission to mount a small tmpfs");
    return mount;
  }

  /** Fills what is left of the small disk. */
  private void fill() throws Exception {
    new ProcessBuilder("bash", "-c", "cat /dev/zero > " + mount.resolve("filler") + " 2>/dev/null; true").start().waitFor();
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
      ProcessBuilder pb = new ProcessBuilder(NativeClient.binary().toString(), "ps");
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
