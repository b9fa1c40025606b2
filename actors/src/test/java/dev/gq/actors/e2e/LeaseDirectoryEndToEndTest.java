package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lease directory gq cannot write, or a lease it cannot take, never turns into a cycle of
 * reservations: the GPUs are UNKNOWN with the reason (and {@code gq daemon status} says it), and a
 * job that fails to start again and again waits longer each time. The directory is made unwritable
 * in a way root respects too (chattr +i as root, mode 0555 otherwise); the journal's events are
 * counted.
 */
class LeaseDirectoryEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  @Test
  void aLeaseDirectoryThisUserCannotMakeKeepsTheGpuUnknownWithTheReasonAndNothingIsReserved() throws Exception {
    Path locked = Files.createDirectories(tmp.resolve("locked"));
    Path leases = locked.resolve("leases");
    lockDown(locked, true);
    try (Gqd g = Gqd.start(tmp.resolve("g"), 1, Map.of("GQ_LEASE_DIR", leases.toString()))) {
      long job = g.submit("-g", "1", "true");
      g.awaitWaitReason(job, "GPU 0: UNKNOWN");
      JsonNode gpu = g.gpus().get(0);
      assertEquals("UNKNOWN", gpu.get("state").asText());
      String why = "cannot make the lease directory " + leases + ": " + locked + " is not writable by this user";
      assertTrue(gpu.get("detail").asText().contains(why), gpu.toString());
      String status = g.gq("daemon", "status").out();
      assertTrue(status.contains("Leases:    cannot be checked (1 GPU UNKNOWN): " + why), status);
      g.awaitMarkerJob(); // the scheduler has planned since, more than once
      assertEquals(0, events(g, job, "JobReserved"), "a GPU whose lease cannot be made is never placed");
      lockDown(locked, false);
      g.awaitState(job, "DONE", T);
    } finally {
      lockDown(locked, false);
    }
  }

  @Test
  void aJobWhoseLeaseCannotBeTakenWaitsLongerAfterEachFailedStartInsteadOfCycling() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "an immutable lease file needs root");
    Path leases = Files.createDirectories(tmp.resolve("leases"));
    Files.setAttribute(leases, "unix:mode", 01777);
    Path file = Files.writeString(leases.resolve(Gqd.uuid(0) + ".lease"), "");
    Files.setAttribute(file, "unix:mode", 0666);
    // it reads as free (it opens and is not locked), but cannot be opened to be written: every take fails
    lockDown(file, true);
    try (Gqd g = Gqd.start(tmp.resolve("g"), 1, Map.of("GQ_LEASE_DIR", leases.toString()))) {
      long job = g.submit("-g", "1", "true");
      g.awaitWaitReason(job, "failed to start 5 times in a row (last: cannot open the lease " + file);
      ChaosJournal journal = ChaosJournal.read(g.data.resolve("gq.db"));
      long reserved = count(journal, job, "JobReserved"), requeued = count(journal, job, "JobRequeued");
      assertTrue(reserved >= 5 && reserved <= 7, reserved + " reservations where the bound allows 5 to 7");
      assertTrue(requeued == reserved || requeued == reserved - 1, requeued + " requeued of " + reserved + " reserved");
      lockDown(file, false);
      g.awaitState(job, "DONE", T);
    } finally {
      lockDown(file, false);
    }
  }

  private static long events(Gqd g, long job, String type) {
    return count(ChaosJournal.read(g.data.resolve("gq.db")), job, type);
  }

  private static long count(ChaosJournal journal, long job, String type) {
    return journal.events.stream().filter(e -> e.jobId() == job && e.type().equals(type)).count();
  }

  /** Makes {@code p} unwritable in a way root respects too (immutable), or writable again. */
  static void lockDown(Path p, boolean on) throws Exception {
    if ("root".equals(System.getProperty("user.name"))) {
      int rc = new ProcessBuilder("chattr", on ? "+i" : "-i", p.toString()).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
      assumeTrue(rc == 0 || !on, "needs a file system that knows chattr +i");
    } else {
      Files.setAttribute(p, "unix:mode", on ? 0555 : 0755);
    }
  }
}
