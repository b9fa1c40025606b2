package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Notifications from the real daemon: a command target that appends each message to a file, a
 * sweep announced once (its quick failure and the drained queue told by its one message), a webhook to a loopback HTTP server (its URL never shown whole), a
 * notify-send stub on PATH, failures counted in {@code gq daemon status}, and a daemon killed while
 * a delivery hangs delivering that message exactly once after its restart. "Nothing more was sent"
 * is always proven by a later message arriving, never by waiting.
 */
class NotifyEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  @TempDir Path tmp;

  private static Path script(Path dir, String name, String body) throws IOException {
    Files.createDirectories(dir);
    Path p = dir.resolve(name);
    Files.writeString(p, "#!/bin/sh\n" + body);
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwx------"));
    return p;
  }

  private static List<String> lines(Path f) {
    try {
      return Files.exists(f) ? Files.readAllLines(f) : List.of();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static void awaitLine(Gqd g, Path f, String part) throws InterruptedException {
    try {
      Gqd.await("a line with '" + part + "' in " + f, T, () -> lines(f).stream().anyMatch(l -> l.contains(part)));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; lines: " + lines(f) + "\ndaemon log:\n" + g.daemonLog(), e);
    }
  }

  private static long count(Path f, String part) {
    return lines(f).stream().filter(l -> l.contains(part)).count();
  }

  @Test
  void aCommandTargetHearsEachFailureAndASweepOnceAndBadTargetsAreRefused() throws Exception {
    Path out = tmp.resolve("heard.txt");
    Path record = script(tmp.resolve("bin"), "record.sh",
        "printf '%s|%s|%s|%s|%s\\n' \"$GQ_EVENT\" \"$GQ_JOB_ID\" \"$GQ_GROUP\" \"$GQ_STATE\" \"$GQ_MESSAGE\" >> " + out + "\n");
    try (Gqd g = Gqd.start(tmp, 0, Map.of("GQ_NOTIFY_BACKOFF_MS", "20"))) {
      assertEquals(2, g.gq("notify", "add", "slack", "x").code());
      var badUrl = g.gq("notify", "add", "webhook", "ftp://example.org/secret-token");
      assertEquals(2, badUrl.code());
      assertTrue(badUrl.err().contains("invalid webhook URL ftp://example.org/…"), badUrl.err());
      assertFalse(badUrl.err().contains("secret-token"), badUrl.err());
      var missing = g.gq("notify", "add", "command", "/nonexistent/notify.sh");
      assertEquals(2, missing.code());
      assertTrue(missing.err().contains("program /nonexistent/notify.sh is not an executable file"), missing.err());
      assertEquals(0, g.gq("notify", "add", "command", "--on", "failed,group,drained", record.toString()).code());
      // a webhook nobody listens on: its failures are counted in gq daemon status, its URL never shown
      assertEquals(0, g.gq("notify", "add", "webhook", "--on", "group", "http://127.0.0.1:9/hook/secret-token").code());

      g.gq("hold", "--all");
      for (int i = 0; i < 5; i++) g.submit("-g", "0", "--group", "sw", "true");
      long bad = g.submit("-g", "0", "--group", "sw", "false");
      g.gq("release", "--all");
      awaitLine(g, out, "group||sw||sw: 5 DONE, 1 FAILED in ");
      // a later message proves nothing more was sent about the sweep: not its quick failure (the
      // group's message tells it) nor a drained queue (the sweep was the whole queue)
      long marker = g.submit("-g", "0", "false");
      awaitLine(g, out, "failed|" + marker + "||FAILED|");
      assertEquals(1, count(out, "group||sw|"), lines(out).toString());
      assertEquals(0, count(out, "failed|" + bad + "|"), lines(out).toString());
      // the sweep was the whole queue, so its message says it all: no drained message, whatever the
      // order in which its last ends reach the notifier; nor one for the lone quick job after it
      assertEquals(0, count(out, "drained|"), "the sweep's message tells the drained queue: " + lines(out));
      assertEquals(0, count(out, "end|"), "a DONE job is not a failure: " + lines(out));

      Gqd.await("the webhook's failures in gq daemon status", T, () -> g.gq("daemon", "status").out().contains("webhook: 1 failed"));
      String status = g.gq("daemon", "status").out();
      assertTrue(status.contains("Notify:    2 targets, 1 failing"), status);
      assertTrue(status.contains("cannot be reached: connection refused by 127.0.0.1:9"), status);
      assertFalse(status.contains("secret-token") || g.daemonLog().contains("secret-token"), status);
      JsonNode list = g.gq("notify", "list", "--json").json();
      assertEquals("http://127.0.0.1:9/…", list.get(1).get("target").asText());
      assertEquals(1, list.get(1).get("failed").asInt());
      assertEquals("0600", mode(g.data.resolve("notify.json")));
      assertEquals(0, g.gq("notify", "rm", "webhook").code());
      assertEquals(1, g.gq("notify", "rm", "webhook").code());
    }
  }

  private static String mode(Path f) throws IOException {
    String p = PosixFilePermissions.toString(Files.getPosixFilePermissions(f));
    return p.equals("rw-------") ? "0600" : p;
  }

  @Test
  void aWebhookGetsSlackTextAndTheDesktopStubGetsTheSameMessage() throws Exception {
    LinkedBlockingQueue<String> bodies = new LinkedBlockingQueue<>();
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    http.createContext("/hook", ex -> {
      bodies.add(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      ex.sendResponseHeaders(200, -1);
      ex.close();
    });
    http.start();
    Path desktop = tmp.resolve("desktop.txt");
    Path bin = tmp.resolve("stubs");
    script(bin, "notify-send", "printf '%s\\n' \"$*\" >> " + desktop + "\n");
    String path = bin + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    try (Gqd g = Gqd.start(tmp, 0, Map.of("PATH", path))) {
      String url = "http://127.0.0.1:" + http.getAddress().getPort() + "/hook/T000/secret-token";
      assertEquals(0, g.gq("notify", "add", "webhook", url).code());
      assertEquals(0, g.gq("notify", "add", "desktop").code());
      String list = g.gq("notify", "list").out();
      assertTrue(list.contains("http://127.0.0.1:" + http.getAddress().getPort() + "/…"), list);
      assertFalse(list.contains("secret-token"), list);

      var test = g.gq("notify", "test");
      assertEquals(0, test.code(), test.toString());
      assertTrue(test.out().contains("webhook (http://127.0.0.1:") && test.out().contains("): delivered"), test.out());
      assertTrue(Gqd.JSON.readTree(bodies.poll(30, TimeUnit.SECONDS)).get("text").asText().contains("test notification"));

      long id = g.submit("-g", "0", "--notify", "sh", "-c", "exit 0");
      JsonNode body = Gqd.JSON.readTree(bodies.poll(60, TimeUnit.SECONDS));
      assertEquals("end", body.get("event").asText(), body.toString());
      assertEquals(id, body.get("job_id").asLong());
      assertTrue(body.get("text").asText().startsWith("gq: job " + id + " (sh) DONE after"), body.toString());
      assertEquals(List.of("sh", "-c", "exit 0"), List.of(g.job(id).get("argv").get(0).asText(), g.job(id).get("argv").get(1).asText(),
          g.job(id).get("argv").get(2).asText()), "--notify alone never takes the command's first word");
      awaitLine(g, desktop, "gq: job " + id + " DONE job " + id + " (sh) DONE");
      // a lone quick job drains the queue quietly: the next message is the next job's
      long next = g.submit("-g", "0", "--notify", "sh", "-c", "exit 3");
      JsonNode after = Gqd.JSON.readTree(bodies.poll(60, TimeUnit.SECONDS));
      assertEquals(next, after.get("job_id").asLong(), after.toString());
      assertEquals("failed", after.get("event").asText(), after.toString());
    } finally {
      http.stop(0);
    }
  }

  @Test
  void aGroupThatFailsFastIsOneMessageNotOnePerFailure() throws Exception {
    Path out = tmp.resolve("heard.txt");
    Path record = script(tmp.resolve("bin"), "record.sh", "printf '%s|%s|%s\\n' \"$GQ_EVENT\" \"$GQ_JOB_ID\" \"$GQ_MESSAGE\" >> " + out + "\n");
    try (Gqd g = Gqd.start(tmp, 0)) {
      assertEquals(0, g.gq("notify", "add", "command", record.toString()).code());
      g.gq("hold", "--all");
      for (int i = 0; i < 4; i++) g.submit("-g", "0", "--group", "ff", "sh", "-c", "exit 4");
      g.gq("release", "--all");
      awaitLine(g, out, "held||group ff held by fail-fast: 3 jobs in a row failed");
      // a later message proves nothing more was sent: no failure of the sweep's cells one by one
      long marker = g.submit("-g", "0", "false");
      awaitLine(g, out, "failed|" + marker + "|");
      assertEquals(2, lines(out).size(), lines(out).toString() + "\n" + g.gq("ps", "-a").out() + "\n" + g.gq("events").out());
    }
  }

  @Test
  void aDaemonKilledWhileADeliveryHangsDeliversItExactlyOnceAfterRestart() throws Exception {
    Path out = tmp.resolve("heard.txt");
    Path block = tmp.resolve("block");
    Path pid = tmp.resolve("hung.pid");
    Path hook = script(tmp.resolve("bin"), "hook.sh",
        "if [ -f " + block + " ]; then echo $$ > " + pid + "; exec sleep 600; fi\n"
            + "echo \"$GQ_EVENT $GQ_JOB_ID\" >> " + out + "\n");
    Files.writeString(block, "");
    try (Gqd g = Gqd.start(tmp, 0)) {
      assertEquals(0, g.gq("notify", "add", "command", "--on", "failed", hook.toString()).code());
      long failed = g.submit("-g", "0", "false");
      Gqd.await("the delivery to hang", T, () -> Files.exists(pid) && !lines(pid).isEmpty());
      g.killDaemon();
      ProcessHandle.of(Long.parseLong(lines(pid).get(0).strip())).ifPresent(ProcessHandle::destroyForcibly);
      Files.delete(block);
      assertEquals(List.of(), lines(out));
      g.startDaemon();
      long marker = g.submit("-g", "0", "false");
      awaitLine(g, out, "failed " + marker);
      assertEquals(List.of("failed " + failed, "failed " + marker), lines(out));
      // and a second restart repeats nothing
      g.stopDaemon();
      g.startDaemon();
      long last = g.submit("-g", "0", "false");
      awaitLine(g, out, "failed " + last);
      assertEquals(List.of("failed " + failed, "failed " + marker, "failed " + last), lines(out));
    }
  }
}
