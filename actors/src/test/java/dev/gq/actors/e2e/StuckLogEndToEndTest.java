package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job log replaced by something that is not a regular file never holds a thread the daemon needs. */
class StuckLogEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);
  @TempDir static Path tmp;
  static Gqd g;

  @BeforeAll
  static void start() throws Exception {
    g = Gqd.start(tmp.resolve("d"), 1);
  }

  @AfterAll
  static void stop() throws Exception {
    g.close();
  }

  @Test
  void aNamedPipeInPlaceOfALogIsRefusedAndTheDaemonKeepsAnswering() throws Exception {
    long id = g.submit("-g", "0", "echo", "hello");
    g.awaitState(id, "DONE", T);
    Path log = g.data.resolve("logs").resolve(id + ".log");
    Files.delete(log);
    assertEquals(0, new ProcessBuilder("mkfifo", log.toString()).inheritIO().start().waitFor());

    // two at once: as many as this machine's cores once were enough to stop every command
    List<CompletableFuture<Gqd.Result>> logs = List.of(
        CompletableFuture.supplyAsync(() -> g.gq("logs", String.valueOf(id))),
        CompletableFuture.supplyAsync(() -> g.gq("logs", "-f", String.valueOf(id))));
    for (CompletableFuture<Gqd.Result> f : logs) {
      Gqd.Result r = f.get(20, TimeUnit.SECONDS);
      assertEquals(1, r.code(), r.toString());
      assertEquals(1, r.err().strip().lines().count(), "one line: " + r.err());
      assertTrue(r.err().contains(log + " is not a regular file (it is a named pipe)"), r.err());
    }
    Gqd.Result status = CompletableFuture.supplyAsync(() -> g.gq("daemon", "status")).get(10, TimeUnit.SECONDS);
    assertEquals(0, status.code(), status.toString());
    Gqd.Result ps = CompletableFuture.supplyAsync(() -> g.gq("ps")).get(10, TimeUnit.SECONDS);
    assertEquals(0, ps.code(), ps.toString());
  }

  @Test
  void aSymbolicLinkInPlaceOfALogIsNotFollowed() throws Exception {
    long id = g.submit("-g", "0", "echo", "hello");
    g.awaitState(id, "DONE", T);
    Path log = g.data.resolve("logs").resolve(id + ".log");
    Path elsewhere = Files.writeString(tmp.resolve("elsewhere.txt"), "not the job's output\n");
    Files.delete(log);
    Files.createSymbolicLink(log, elsewhere);
    Gqd.Result r = g.gq("logs", String.valueOf(id));
    assertEquals(1, r.code(), r.toString());
    assertTrue(r.err().contains("is not a regular file (it is a symbolic link)"), r.err());
    assertFalse(r.out().contains("not the job's output"), r.out());
  }
}
