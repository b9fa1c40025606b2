package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq mcp} started by the checkout's bin/gq in front of a real daemon, driven by a scripted
 * JSON-RPC conversation on its standard input and output, as an AI assistant drives it.
 */
class McpEndToEndTest {
  @TempDir Path tmp;

  @Test
  void anAssistantSeesTheQueueSubmitsOnlyWhenConfirmedAndCancels() throws Exception {
    Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    assertTrue(Files.isRegularFile(root.resolve("mcp/target/gq-mcp.jar")), "gq mcp is not built in this reactor run (mcp/target)");
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1); Conversation mcp = new Conversation(root.resolve("bin/gq"), g, tmp.resolve("mcp.err"))) {
      JsonNode init = mcp.request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
          "clientInfo", Map.of("name", "test", "version", "1")));
      assertEquals("gq", init.at("/result/serverInfo/name").asText(), init.toString());
      mcp.notify("notifications/initialized");
      JsonNode list = mcp.request("tools/list", Map.of());
      List<String> names = list.at("/result/tools").findValuesAsText("name");
      assertTrue(names.containsAll(List.of("ps", "show", "logs", "gpu", "groups", "eta", "events",
          "submit", "cancel", "retry", "preempt", "resume")), names.toString());

      assertEquals(0, Gqd.JSON.readTree(mcp.callOk("ps", Map.of())).size(), "an empty queue");

      String dry = mcp.callOk("submit", Map.of("argv", List.of("sleep", "300"), "name", "mcp-job", "gpus", 1));
      assertTrue(dry.contains("command: gq run --json -g 1 --name=mcp-job -- sleep 300"), dry);
      assertEquals(0, g.gq("ps", "--all", "--json").json().size(), "a dry run queues nothing");

      JsonNode submitted = Gqd.JSON.readTree(mcp.callOk("submit",
          Map.of("argv", List.of("sleep", "300"), "name", "mcp-job", "gpus", 1, "confirm", true)));
      long id = submitted.get("id").asLong();
      assertFalse(submitted.get("skipped").asBoolean(), submitted.toString());
      JsonNode ps = Gqd.JSON.readTree(mcp.callOk("ps", Map.of()));
      assertEquals(List.of(id), ps.findValues("id").stream().map(JsonNode::asLong).toList(), ps.toString());
      assertEquals("mcp-job", ps.get(0).get("name").asText());
      Gqd.await("the job to run", Duration.ofSeconds(60), () -> "RUNNING".equals(state(g, id)));

      String cancelDry = mcp.callOk("cancel", Map.of("jobs", List.of(id)));
      assertTrue(cancelDry.contains("job " + id + " 'mcp-job' RUNNING, running for "), cancelDry);
      assertEquals("RUNNING", state(g, id), "a dry run cancels nothing");

      JsonNode bad = mcp.call("show", Map.of("job", "the newest"));
      assertTrue(bad.at("/result/isError").asBoolean(), bad.toString());

      mcp.callOk("cancel", Map.of("jobs", List.of(id), "confirm", true));
      Gqd.await("the job to be cancelled", Duration.ofSeconds(60), () -> "CANCELLED".equals(state(g, id)));
    }
  }

  @Test
  void everyBadLineIsAnsweredWithAnErrorAndTheServerGoesOnUntilItsInputEnds() throws Exception {
    Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1); Conversation mcp = new Conversation(root.resolve("bin/gq"), g, tmp.resolve("mcp.err"))) {
      mcp.request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
          "clientInfo", Map.of("name", "test", "version", "1")));
      Map<String, Integer> bad = new LinkedHashMap<>();
      bad.put("{\"jsonrpc\":\"2.0\",\"id\":", -32700);
      bad.put("12345", -32600);
      bad.put("[{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"ping\"}]", -32600);
      bad.put("{\"id\":51,\"method\":\"ping\"}", -32600);
      bad.put("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}", -32600);
      bad.put("{\"jsonrpc\":\"2.0\",\"id\":52,\"method\":\"tools/call\",\"params\":\"x\"}", -32602);
      mcp.sendLine("");
      for (Map.Entry<String, Integer> e : bad.entrySet()) {
        mcp.sendLine(e.getKey());
        JsonNode answer = Gqd.JSON.readTree(mcp.nextLine());
        assertEquals(e.getValue().intValue(), answer.at("/error/code").asInt(), e.getKey() + " -> " + answer);
        assertFalse(answer.at("/error/message").asText().contains("Exception"), answer.toString());
      }
      // a line over 16 MiB, sent in pieces: one error, and the line after it is read as usual
      mcp.sendHugeLine(17 << 20);
      JsonNode tooLong = Gqd.JSON.readTree(mcp.nextLine());
      assertEquals(-32600, tooLong.at("/error/code").asInt(), tooLong.toString());
      assertTrue(tooLong.at("/error/message").asText().contains("longer than 16 MiB"), tooLong.toString());
      assertEquals(0, Gqd.JSON.readTree(mcp.callOk("ps", Map.of())).size(), "still serving after every bad line");
    }
    assertEquals("", Files.readString(tmp.resolve("mcp.err")), "nothing on standard error");
  }

  @Test
  void theEndOfInputEndsTheServerWhileTheDaemonDoesNotAnswer() throws Exception {
    Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    Gqd g = new Gqd(tmp.resolve("d"), 1, Map.of());
    Files.createDirectories(g.run, PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwx------")));
    // a daemon that takes connections and never answers
    try (var silent = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      silent.bind(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
      List<SocketChannel> held = new CopyOnWriteArrayList<>();
      Thread acceptor = new Thread(() -> {
        try {
          while (true) held.add(silent.accept());
        } catch (IOException closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      Conversation mcp = new Conversation(root.resolve("bin/gq"), g, tmp.resolve("mcp.err"));
      try {
        mcp.request("initialize", Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
            "clientInfo", Map.of("name", "test", "version", "1")));
        mcp.sendLine("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"ps\"}}");
        Gqd.await("the call to reach the daemon", Duration.ofSeconds(60), () -> !held.isEmpty());
        int code = mcp.closeInput();
        String err = Files.readString(tmp.resolve("mcp.err"));
        assertEquals(1, code, err);
        assertEquals(1, err.lines().count(), "one line on standard error: " + err);
        assertTrue(err.startsWith("gq mcp: the input ended; 1 tool call "), err);
      } finally {
        mcp.kill();
        for (SocketChannel c : held) c.close();
      }
    }
  }

  private static String state(Gqd g, long id) {
    return g.gq("show", String.valueOf(id), "--json").json().get("state").asText();
  }

  /** The server as a child process: one JSON-RPC message a line each way. */
  static final class Conversation implements AutoCloseable {
    private final Process process;
    private final OutputStream in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Path stderr;
    private int nextId = 1;

    Conversation(Path gq, Gqd g, Path stderr) throws Exception {
      this.stderr = stderr;
      ProcessBuilder pb = new ProcessBuilder(gq.toString(), "mcp");
      pb.environment().clear();
      pb.environment().putAll(g.env());
      pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
      pb.directory(g.work.toFile()).redirectError(stderr.toFile());
      process = pb.start();
      in = process.getOutputStream();
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = r.readLine()) != null; ) lines.add(line);
        } catch (IOException ignored) {
          // the process ended
        }
      });
      reader.setDaemon(true);
      reader.start();
    }

    JsonNode request(String method, Object params) throws Exception {
      int id = nextId++;
      send(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params));
      while (true) {
        String line = lines.poll(90, TimeUnit.SECONDS);
        assertNotNull(line, "no answer to " + method + "; stderr: " + Files.readString(stderr));
        JsonNode msg = Gqd.JSON.readTree(line);
        if (msg.has("id") && msg.get("id").asInt() == id) return msg;
      }
    }

    void notify(String method) throws Exception {
      send(Map.of("jsonrpc", "2.0", "method", method));
    }

    JsonNode call(String tool, Map<String, Object> arguments) throws Exception {
      return request("tools/call", Map.of("name", tool, "arguments", arguments));
    }

    /** The text of a tool call that must succeed. */
    String callOk(String tool, Map<String, Object> arguments) throws Exception {
      JsonNode r = call(tool, arguments);
      assertFalse(r.at("/result/isError").asBoolean(true), tool + " " + arguments + ": " + r);
      return r.at("/result/content/0/text").asText();
    }

    private void send(Object message) throws Exception {
      ObjectNode node = Gqd.JSON.valueToTree(message);
      sendLine(Gqd.JSON.writeValueAsString(node));
    }

    void sendLine(String line) throws Exception {
      in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    /** A request line of {@code bytes} bytes, written a MiB at a time. */
    void sendHugeLine(int bytes) throws Exception {
      String head = "{\"jsonrpc\":\"2.0\",\"id\":60,\"method\":\"ping\",\"params\":{\"pad\":\"";
      in.write(head.getBytes(StandardCharsets.UTF_8));
      byte[] mib = new byte[1 << 20];
      Arrays.fill(mib, (byte) 'x');
      for (int left = bytes - head.length() - 4; left > 0; left -= mib.length) in.write(mib, 0, Math.min(left, mib.length));
      in.write("\"}}\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    /** The next line the server writes. */
    String nextLine() throws Exception {
      String line = lines.poll(90, TimeUnit.SECONDS);
      assertNotNull(line, "no answer; stderr: " + Files.readString(stderr));
      return line;
    }

    /** Closes standard input, as an assistant does when it quits; the server must end: its exit code. */
    int closeInput() throws Exception {
      in.close();
      boolean ended = process.waitFor(30, TimeUnit.SECONDS);
      if (!ended) process.destroyForcibly();
      assertTrue(ended, "gq mcp ends when its input closes");
      return process.exitValue();
    }

    /** The server's process (the gq command it was started as). */
    ProcessHandle handle() {
      return process.toHandle();
    }

    /** Ends the process whatever state it is in (a test that failed half-way leaves none behind). */
    void kill() {
      process.destroyForcibly();
    }

    @Override
    public void close() throws Exception {
      try {
        assertEquals(0, closeInput(), Files.readString(stderr));
      } finally {
        kill();
      }
    }
  }
}
