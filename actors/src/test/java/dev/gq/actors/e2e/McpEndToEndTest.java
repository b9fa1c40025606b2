package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
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
        } catch (java.io.IOException ignored) {
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
      in.write((Gqd.JSON.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    /** Closing standard input ends the server, as an assistant does when it quits. */
    @Override
    public void close() throws Exception {
      in.close();
      boolean ended = process.waitFor(30, TimeUnit.SECONDS);
      if (!ended) process.destroyForcibly();
      assertTrue(ended, "gq mcp ends when its input closes");
      assertEquals(0, process.exitValue(), Files.readString(stderr));
    }
  }
}
