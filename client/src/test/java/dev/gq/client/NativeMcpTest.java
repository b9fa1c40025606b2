package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.ClientRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * gq mcp through the native client against a scripted daemon: it asks to stream its input, relays
 * it byte for byte once told to (large input too, while the daemon answers), and ends with the
 * daemon's exit code.
 */
@Timeout(60)
class NativeMcpTest {
  @TempDir Path dir;
  NativeGq gq;

  @BeforeEach
  void setUp() throws Exception {
    gq = new NativeGq(dir);
  }

  @Test
  void standardInputIsRelayedByteForByteAndTheAnswersComeBack() throws Exception {
    gq.env.put("GQ_MCP_SERVER", "daemon");
    byte[] input = new byte[300_000]; // several frames, some sent while answers come back
    for (int i = 0; i < input.length; i++) input[i] = (byte) (i % 251 == 0 ? '\n' : i);
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.err("gq: a note before the session\n"));
      out.send(new Frame.StdinStream());
      for (Frame f = Frame.decode(in.readLine()); !(f instanceof Frame.StdinEnd); f = Frame.decode(in.readLine())) {
        byte[] b = ((Frame.InBytes) f).bytes();
        assertTrue(b.length <= Frame.InBytes.MAX_BYTES, "a frame of " + b.length + " bytes");
        received.write(b);
        out.send(Frame.out("{\"jsonrpc\":\"2.0\",\"id\":" + received.size() + ",\"result\":{}}\n"));
      }
      out.send(Frame.exit(0));
    })) {
      NativeGq.Result r = gq.run(input, "mcp");
      assertEquals(0, r.code(), r.err());
      assertEquals("gq: a note before the session\n", r.err());
      assertArrayEquals(input, received.toByteArray());
      String last = new String(r.outBytes(), StandardCharsets.UTF_8).lines().reduce((a, b) -> b).orElseThrow();
      assertEquals("{\"jsonrpc\":\"2.0\",\"id\":" + input.length + ",\"result\":{}}", last);
      ClientRequest.Run run = (ClientRequest.Run) d.requests.get(0);
      assertEquals(List.of("mcp"), run.argv());
      assertTrue(run.stdinStream(), "gq mcp says it can stream its input");
      assertFalse(run.env().containsKey("GQ_MCP_SERVER"), "GQ_MCP_SERVER is not passed on");
    }
  }

  @Test
  void otherCommandsDoNotOfferToStreamTheirInput() throws Exception {
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> out.send(Frame.exit(0)))) {
      assertEquals(0, gq.run("mcp", "--help").code());
      assertFalse(((ClientRequest.Run) d.requests.get(0)).stdinStream(), "help is a command as any other");
    }
  }
}
