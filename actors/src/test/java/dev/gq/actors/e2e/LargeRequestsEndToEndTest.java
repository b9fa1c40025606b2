package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests that hold much memory, all at once, on a daemon with a long queue and a small heap:
 * {@code gq mcp} sessions that each send one 15 MiB line, {@code gq top} windows of 10 x 65535 that
 * leave after their first screen, and {@code gq ps --json} of the whole queue. The daemon admits
 * what its budget holds and refuses the rest with one line; it never runs out of memory, and every
 * client gets its answer or its refusal.
 */
class LargeRequestsEndToEndTest {
  private static final int WAITING = 20_000;
  private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  @TempDir Path tmp;

  @Test
  void manyLargeRequestsAtOnceAreEachAnsweredOrRefusedAndTheDaemonLivesOn() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      queue(g);
      long pid = g.process().pid();
      ExecutorService pool = Executors.newFixedThreadPool(19);
      List<Future<String>> mcp = new ArrayList<>(), top = new ArrayList<>(), ps = new ArrayList<>();
      for (int i = 0; i < 6; i++) mcp.add(pool.submit(() -> said(() -> mcp(g))));
      for (int i = 0; i < 10; i++) top.add(pool.submit(() -> said(() -> top(g))));
      for (int i = 0; i < 3; i++) ps.add(pool.submit(() -> said(() -> ps(g))));
      pool.shutdown();
      assertTrue(pool.awaitTermination(300, TimeUnit.SECONDS), "the clients were answered within 5 minutes");
      for (List<Future<String>> kind : List.of(mcp, top, ps))
        for (Future<String> f : kind) assertEquals("answered", f.get(), g.daemonLog());
      assertTrue(g.process().isAlive(), "the daemon is still running: " + g.daemonLog());
      assertEquals(pid, g.process().pid());
      assertFalse(g.daemonLog().contains("OutOfMemoryError"), g.daemonLog());
      assertEquals(0, g.gq("ps", "--limit", "1").code());
    }
  }

  @Test
  void aBatchOfMoreLinesThanOneWriteTakesIsQueuedInOneCommand() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      assertEquals(0, g.gq("hold", "--all").code());
      Path batch = g.work.resolve("cells.txt");
      StringBuilder sb = new StringBuilder("# a sweep larger than one write\n");
      for (int i = 1; i <= 25_000; i++) sb.append("python train.py --cell ").append(i).append('\n');
      Files.writeString(batch, sb);
      var r = g.gq("submit", "--batch", batch.toString(), "-g", "1");
      assertEquals(0, r.code(), r.toString());
      assertEquals("Submitted 25000 jobs: 1-25000\n", r.out());
      assertEquals("WAITING", g.state(1));
      assertEquals("WAITING", g.state(25_000));
      assertEquals("python train.py --cell 25000", String.join(" ", Gqd.JSON.convertValue(g.job(25_000).get("argv"), String[].class)));
    }
  }

  private static void queue(Gqd g) throws Exception {
    assertEquals(0, g.gq("hold", "--all").code());
    Path batch = g.work.resolve("cells.txt");
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= WAITING / 2; i++) sb.append("python train.py --cell ").append(i).append(" --lr 3e-4\n");
    Files.writeString(batch, sb);
    for (int part = 0; part < 2; part++) assertEquals(0, g.gq("submit", "--batch", batch.toString(), "-g", "1").code());
  }

  /** A gq mcp session that sends one 15 MiB line between two small ones: each gets its answer, or the long one a busy error. */
  private static String mcp(Gqd g) throws Exception {
    String big = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(15 << 20) + "\"}}";
    String input = INIT + "\n" + big + "\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n";
    try (RawClient c = RawClient.run(g, List.of("mcp"), false, 80, 0, true)) {
      c.stdin(input.getBytes(StandardCharsets.UTF_8));
      RawClient.Reply r = c.read(false);
      assertNotNull(r.code(), "gq mcp ended with an exit frame: " + r);
      List<JsonNode> answers = new ArrayList<>();
      for (String line : r.out().split("\n")) answers.add(Gqd.JSON.readTree(line));
      assertEquals(3, answers.size(), r.out());
      JsonNode second = answers.get(1);
      assertTrue(second.has("result") || second.path("error").path("code").asInt() == -32000, second.toString());
      assertEquals(3, answers.get(2).path("id").asInt(), r.out());
      return "answered";
    }
  }

  /** A gq top of 10 x 65535 that leaves after its first screen, or is refused in one line. */
  private static String top(Gqd g) throws Exception {
    try (RawClient c = RawClient.run(g, List.of("top"), true, 10, 65535, false)) {
      RawClient.Reply r = c.read(true);
      boolean shown = r.screen() && !r.out().isEmpty();
      assertTrue(shown || oneLine(r.err()), r.toString());
      return "answered";
    }
  }

  /** gq ps --json of the whole queue: every job, or one line saying why not. */
  private static String ps(Gqd g) throws Exception {
    try (RawClient c = RawClient.run(g, List.of("ps", "--json"), false, 80, 0, false)) {
      RawClient.Reply r = c.read(false);
      assertNotNull(r.code(), "ps ended with an exit frame: " + r.err());
      if (r.code() == 0) assertEquals(WAITING, Gqd.JSON.readTree(r.out()).size());
      else assertTrue(oneLine(r.err()), r.err());
      return "answered";
    }
  }

  /** What one client saw: "answered", or what went wrong (a connection the daemon dropped). */
  private static String said(Callable<String> client) {
    try {
      return client.call();
    } catch (Exception | AssertionError e) {
      return "no answer: " + e;
    }
  }

  private static boolean oneLine(String err) {
    return err.startsWith("gq: ") && err.indexOf('\n') == err.length() - 1;
  }
}
