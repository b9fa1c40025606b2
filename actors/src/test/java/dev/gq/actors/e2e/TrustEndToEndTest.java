package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.protocol.PrivateDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon works only in directories of its own user that nobody else can write, never writes job
 * output through a link planted in its data directory, and shares its database with no other daemon.
 * Another user is uid 65534 (nobody); the test that needs root to give it a directory skips otherwise.
 */
class TrustEndToEndTest {
  static final int OTHER = 65534;
  @TempDir static Path tmp;
  static Gqd g;

  @BeforeAll
  static void start() throws Exception {
    g = Gqd.start(tmp.resolve("main"), 1);
  }

  @AfterAll
  static void stop() throws Exception {
    g.close();
  }

  @Test
  void aDataDirectoryOfAnotherUserIsRefused() throws Exception {
    assumeTrue(PrivateDirectory.myUid() == 0, "needs root to give a directory to another user");
    try (Gqd other = new Gqd(tmp.resolve("theirs"), 1, Map.of())) {
      Files.createDirectories(other.data);
      Process chown = new ProcessBuilder("chown", OTHER + ":" + OTHER, other.data.toString()).inheritIO().start();
      assertEquals(0, chown.waitFor());
      assertRefused(other, "gq daemon: the data directory " + other.data + " belongs to uid " + OTHER
          + ", not to you (uid 0), and its owner could read what gq keeps there; set GQ_DATA_DIR to a directory of your own");
      assertTrue(Files.notExists(other.data.resolve("gq.db")), "nothing is written into it");
    }
  }

  @Test
  void aRuntimeDirectoryOthersCanWriteIsRefused() throws Exception {
    try (Gqd other = new Gqd(tmp.resolve("open"), 1, Map.of())) {
      Files.createDirectories(other.run);
      Files.setPosixFilePermissions(other.run, PosixFilePermissions.fromString("rwxrwxrwx"));
      assertRefused(other, "gq daemon: the runtime directory " + other.run
          + " can be written by other users (mode 0777); run 'chmod go-w " + other.run + "', or set GQ_RUNTIME_DIR to a private directory");
      assertTrue(Files.notExists(other.run.resolve("gq.sock")));
    }
  }

  @Test
  void aLogDirectoryThatIsALinkIsRefusedAndItsTargetLeftAlone() throws Exception {
    try (Gqd other = new Gqd(tmp.resolve("linked"), 1, Map.of())) {
      Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
      Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.createDirectories(other.data);
      Files.createSymbolicLink(other.data.resolve("logs"), elsewhere);
      assertRefused(other, "gq daemon: the log directory " + other.data.resolve("logs")
          + " is not a directory (a symbolic link is not accepted there)");
      assertEquals(PosixFilePermissions.fromString("rwxr-xr-x"), Files.getPosixFilePermissions(elsewhere));
    }
  }

  @Test
  void aSecondDaemonOnTheSameDataDirectoryIsRefusedNamingTheFirst() throws Exception {
    Path run2 = tmp.resolve("run2");
    // not closed: closing would stop every process of this data directory, the first daemon too
    Gqd second = new Gqd(g.root, 1, Map.of("GQ_RUNTIME_DIR", run2.toString()));
    String pid = Files.readString(g.run.resolve("gq.pid")).strip();
    assertRefused(second, "gq daemon: another gq daemon (pid " + pid + ", runtime directory " + g.run
        + ") already uses the data directory " + g.data + "; use that daemon (GQ_RUNTIME_DIR=" + g.run + "), or stop it first");
    assertTrue(Files.notExists(run2.resolve("gq.sock")), "the second daemon never served");
    assertEquals(0, g.gq("ps").code(), "the first daemon still serves");
  }

  @Test
  void aLinkPlantedAsAJobsLogIsNotWrittenThrough() throws Exception {
    Path victim = Files.writeString(tmp.resolve("victim"), "precious\n");
    long next = g.gq("ps", "--all", "--json").json().size() + 1;
    Files.createDirectories(g.data.resolve("logs"));
    Files.createSymbolicLink(g.data.resolve("logs").resolve(next + ".log"), victim);
    long id = g.submit("-g", "0", "echo", "leaked");
    assertEquals(next, id, "the planted link has the new job's name");
    JsonNode job = g.awaitState(id, "FAILED", Duration.ofSeconds(60));
    assertTrue(job.get("failure_reason").asText().contains("not a plain file"), job.toString());
    assertEquals("precious\n", Files.readString(victim));
  }

  @Test
  void holdingAGroupWithAnEmptyNameIsAnErrorOnStderr() {
    Gqd.Result r = g.gq("hold", "--group", "");
    assertEquals(1, r.code(), r.toString());
    assertEquals("", r.out());
    assertTrue(r.err().startsWith("gq: the group must not be empty"), r.err());
  }

  private static void assertRefused(Gqd daemon, String line) throws Exception {
    Process p = daemon.daemonProcess();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("the daemon started instead of refusing: " + daemon.daemonLog());
    }
    assertEquals(1, p.exitValue(), daemon.daemonLog());
    assertTrue(daemon.daemonLog().contains(line), daemon.daemonLog());
  }
}
