package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq mcp} through the native client: the session is served inside the real daemon (no JVM
 * starts for it), a client gone in the middle of a message leaves the daemon serving, and a daemon
 * that cannot serve the session hands it to the JVM server, which answers the same.
 */
class McpInDaemonEndToEndTest {
  static final Map<String, Object> INIT = Map.of("protocolVersion", "2025-06-18", "capabilities", Map.of(),
      "clientInfo", Map.of("name", "test", "version", "1"));

  @TempDir Path tmp;

  @Test
  void theNativeClientRelaysASessionServedInsideTheDaemon() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1);
        McpEndToEndTest.Conversation mcp = new McpEndToEndTest.Conversation(NativeClient.binary(), g, tmp.resolve("mcp.err"))) {
      JsonNode init = mcp.request("initialize", INIT);
      assertEquals("gq", init.at("/result/serverInfo/name").asText(), init.toString());
      assertEquals("2025-06-18", init.at("/result/protocolVersion").asText(), init.toString());
      // the native client itself, with no JVM under it: the daemon answered
      assertEquals(NativeClient.binary().toRealPath().toString(), mcp.handle().info().command().orElseThrow());
      assertEquals(0, mcp.handle().children().count(), "gq mcp started no process");
      mcp.notify("notifications/initialized");
      List<String> names = mcp.request("tools/list", Map.of()).at("/result/tools").findValuesAsText("name");
      assertTrue(names.containsAll(List.of("ps", "show", "logs", "gpu", "submit", "cancel")), names.toString());

      JsonNode submitted = Gqd.JSON.readTree(mcp.callOk("submit",
          Map.of("argv", List.of("sleep", "300"), "name", "in-daemon", "gpus", 1, "confirm", true)));
      long id = submitted.get("id").asLong();
      JsonNode ps = g.gq("ps", "--json").json();
      assertEquals(List.of(id), ps.findValues("id").stream().map(JsonNode::asLong).toList(), ps.toString());
      assertEquals("in-daemon", ps.get(0).get("name").asText());
      assertEquals(g.work.toRealPath().toString(), g.gq("show", String.valueOf(id), "--json").json().get("cwd").asText(),
          "the job runs where gq mcp was started");
      g.gq("cancel", "--yes", String.valueOf(id));
    }
    assertEquals("", Files.readString(tmp.resolve("mcp.err")), "nothing on standard error");
  }

  @Test
  void aClientGoneInTheMiddleOfAMessageLeavesTheDaemonServing() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      // gone mid-message, mid-frame, and with a tool call in flight
      try (SocketChannel c = session(g)) {
        send(c, new Frame.InBytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"meth".getBytes(StandardCharsets.UTF_8)).toJson() + "\n"
            + "{\"t\":\"inb\",\"b\":\"eyJq");
      }
      try (SocketChannel c = session(g)) {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ps\",\"arguments\":{}}}\n";
        send(c, new Frame.InBytes(call.getBytes(StandardCharsets.UTF_8)).toJson() + "\n");
      }
      assertTrue(g.ping(), "the daemon answers");
      assertEquals(0, g.gq("ps", "--json").json().size());
      try (McpEndToEndTest.Conversation mcp = new McpEndToEndTest.Conversation(NativeClient.binary(), g, tmp.resolve("mcp.err"))) {
        mcp.request("initialize", INIT);
        assertEquals(0, Gqd.JSON.readTree(mcp.callOk("ps", Map.of())).size(), "a new session is served");
      }
      assertFalse(g.daemonLog().contains("ERROR"), g.daemonLog());
    }
  }

  @Test
  void theSessionGoesOnAcrossADaemonRestartAndTheRequestItLostIsAnsweredWithAnError() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1);
        McpEndToEndTest.Conversation mcp = new McpEndToEndTest.Conversation(NativeClient.binary(), g, tmp.resolve("mcp.err"))) {
      mcp.request("initialize", INIT);
      // a call the daemon receives and never answers: it is stopped, then killed
      long pid = g.process().pid();
      assertEquals(0, new ProcessBuilder("kill", "-STOP", String.valueOf(pid)).start().waitFor());
      long before = bytesRead(mcp.handle());
      String call = "{\"jsonrpc\":\"2.0\",\"id\":\"lost-1\",\"method\":\"tools/call\",\"params\":{\"name\":\"ps\"}}";
      mcp.sendLine(call);
      Gqd.await("the client to read the call", Duration.ofSeconds(30), () -> bytesRead(mcp.handle()) >= before + call.length() + 1);
      g.killDaemon();
      JsonNode lost = Gqd.JSON.readTree(mcp.nextLine());
      assertEquals("lost-1", lost.get("id").asText(), lost.toString());
      assertEquals(-32603, lost.at("/error/code").asInt(), lost.toString());
      assertTrue(lost.at("/error/message").asText().contains("may or may not have been done"), lost.toString());

      g.startDaemon();
      List<String> names = mcp.request("tools/list", Map.of()).at("/result/tools").findValuesAsText("name");
      assertTrue(names.contains("ps"), names.toString());
      assertEquals(0, Gqd.JSON.readTree(mcp.callOk("ps", Map.of())).size(), "served by the new daemon");
    }
  }

  @Test
  void aDaemonThatCannotServeTheSessionHandsItToTheJvmServer() throws Exception {
    Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    assertTrue(Files.isRegularFile(root.resolve("mcp/target/gq-mcp.jar")), "gq mcp is not built in this reactor run (mcp/target)");
    Gqd g = new Gqd(tmp.resolve("d"), 1, Map.of());
    Files.createDirectories(g.run, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    // a daemon of another gq version: every request refused in one line
    try (var old = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      old.bind(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
      Thread refuser = new Thread(() -> {
        try {
          while (true) {
            try (SocketChannel c = old.accept()) {
              LineWriter w = new LineWriter(c);
              w.send(new Frame.Err("gq: the client speaks protocol 2 and this daemon 1\n"));
              w.send(new Frame.Exit(1));
            }
          }
        } catch (IOException closed) {
          // the test is over
        }
      });
      refuser.setDaemon(true);
      refuser.start();
      try (McpEndToEndTest.Conversation mcp = new McpEndToEndTest.Conversation(NativeClient.binary(), g, tmp.resolve("mcp.err"))) {
        JsonNode init = mcp.request("initialize", INIT);
        assertEquals("gq", init.at("/result/serverInfo/name").asText(), init.toString());
        assertTrue(mcp.handle().info().command().orElseThrow().endsWith("/java"), "the JVM server answered");
        List<String> names = mcp.request("tools/list", Map.of()).at("/result/tools").findValuesAsText("name");
        assertTrue(names.contains("submit"), names.toString());
        // its tool's command runs through the native client, which meets the other version's refusal
        JsonNode ps = mcp.call("ps", Map.of());
        assertTrue(ps.at("/result/isError").asBoolean(false), ps.toString());
        assertTrue(ps.toString().contains("the client speaks protocol 2 and this daemon 1"), ps.toString());
      }
    }
  }

  /** The bytes a process has read so far (its standard input among them), from /proc/PID/io. */
  private static long bytesRead(ProcessHandle p) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(p.pid()), "io"))) {
        if (line.startsWith("rchar:")) return Long.parseLong(line.substring(6).trim());
      }
      return -1;
    } catch (IOException e) {
      return -1;
    }
  }

  /** A connection that asked for gq mcp and was told to stream its input. */
  private static SocketChannel session(Gqd g) throws Exception {
    SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
    c.connect(UnixDomainSocketAddress.of(g.run.resolve("gq.sock")));
    ClientRequest.Run req = new ClientRequest.Run("r", List.of("mcp"), g.work.toString(), g.env(), false, false, false, 80, 0, false, true);
    new LineWriter(c).write(req.toJson());
    LineReader r = new LineReader(c);
    Frame f;
    do f = Frame.decode(r.readLine());
    while (!(f instanceof Frame.StdinStream) && !(f instanceof Frame.Exit));
    assertEquals(new Frame.StdinStream(), f);
    return c;
  }

  private static void send(SocketChannel c, String text) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    while (b.hasRemaining()) c.write(b);
  }
}
