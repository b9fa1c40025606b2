package dev.gq.mcp;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.mcp.GqRunner.Outcome;
import dev.gq.protocol.Json;
import dev.gq.protocol.ProtocolException;
import dev.gq.protocol.RequestMemory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The read loop with the real protocol and tools against a scripted gq: every bad line gets its
 * JSON-RPC error and the next line its answer, and the end of the input ends the loop even while a
 * gq command never returns.
 */
class StdioServerTest {
  static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
      + "\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

  final List<String> out = Collections.synchronizedList(new ArrayList<>());
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int serve(GqRunner runner, int maxLineBytes, Duration grace, String... lines) throws Exception {
    StdioServer server = new StdioServer(new McpSession(new GqTools(runner, "/w", () -> Instant.EPOCH)), out::add,
        new PrintStream(err, true, StandardCharsets.UTF_8), grace);
    byte[] input = (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    return server.serve(new LineInput(new ByteArrayInputStream(input), maxLineBytes));
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> answer(int i) throws Exception {
    return (Map<String, Object>) Json.parse(out.get(i));
  }

  private void assertError(int i, Object id, int code) throws Exception {
    Map<String, Object> a = answer(i);
    assertEquals(id, a.get("id"), out.get(i));
    assertEquals((long) code, ((Map<?, ?>) a.get("error")).get("code"), out.get(i));
  }

  @Test
  void everyBadLineGetsItsErrorAndTheServerKeepsServing() throws Exception {
    GqToolsTest.FakeRunner runner = new GqToolsTest.FakeRunner();
    int code = serve(runner, StdioServer.MAX_LINE_BYTES, Duration.ofSeconds(30),
        INIT,
        "",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":",
        "12345",
        "[{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]",
        "{\"id\":4,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":\"x\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"ps\",\"arguments\":\"x\"}}",
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":5}}",
        "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"initialize\",\"params\":{\"protocolVersion\":[]}}",
        "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/list\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/list\"}",
        "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{\"name\":\"ps\",\"arguments\":{}}}");
    assertEquals(0, code, err.toString());
    assertEquals("", err.toString(), "nothing on standard error");
    assertEquals(14, out.size(), String.join("\n", out));
    assertEquals("2025-06-18", ((Map<?, ?>) answer(0).get("result")).get("protocolVersion"));
    assertError(1, null, JsonRpc.PARSE_ERROR);
    assertError(2, null, JsonRpc.INVALID_REQUEST);
    assertError(3, null, JsonRpc.INVALID_REQUEST);
    assertError(4, 4L, JsonRpc.INVALID_REQUEST);
    assertError(5, null, JsonRpc.INVALID_REQUEST);
    assertError(6, 5L, JsonRpc.INVALID_PARAMS);
    assertError(7, 6L, JsonRpc.INVALID_PARAMS);
    assertError(8, 7L, JsonRpc.INVALID_PARAMS);
    assertError(9, 8L, JsonRpc.INVALID_PARAMS);
    assertError(10, 9L, JsonRpc.METHOD_NOT_FOUND);
    assertEquals("{\"jsonrpc\":\"2.0\",\"id\":10,\"result\":{}}", out.get(11));
    assertTrue(out.get(12).contains("\"name\":\"submit\""), out.get(12));
    Map<?, ?> ps = (Map<?, ?>) answer(13).get("result");
    assertEquals(false, ps.get("isError"), out.get(13));
    assertEquals(List.of(List.of("ps", "--json")), runner.calls, "only the good call ran gq");
    for (String line : out) assertFalse(line.contains("Exception") || line.contains("jackson"), line);
  }

  @Test
  void aLineOverTheLimitIsAnErrorAndTheNextLineIsAnswered() throws Exception {
    String ping = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
    int code = serve(new GqToolsTest.FakeRunner(), 256, Duration.ofSeconds(30),
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(10_000) + "\"}}", ping);
    assertEquals(0, code);
    assertEquals(2, out.size(), String.join("\n", out));
    assertError(0, null, JsonRpc.INVALID_REQUEST);
    assertTrue(out.get(0).contains("a line longer than 256 bytes was skipped"), out.get(0));
    assertEquals("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}", out.get(1));
  }

  @Test
  void theEndOfInputEndsTheServerWhileAGqCommandNeverReturns() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    GqRunner stuck = (argv, cwd) -> {
      try {
        never.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new Outcome(0, "[]", "");
    };
    try {
      int code = serve(stuck, StdioServer.MAX_LINE_BYTES, Duration.ofMillis(200), INIT,
          "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"ps\"}}",
          "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
      assertEquals(1, code);
      assertEquals(2, out.size(), "the initialize and the ping are answered, the stuck call is not: " + out);
      assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}", out.get(1));
      String said = err.toString(StandardCharsets.UTF_8);
      assertEquals(1, said.lines().count(), said);
      assertTrue(said.startsWith("gq mcp: the input ended; 1 tool call "), said);
    } finally {
      never.countDown();
    }
  }

  @Test
  void callsReadBeforeTheEndOfInputAreAllAnswered() throws Exception {
    List<String> lines = new ArrayList<>(List.of(INIT));
    for (int id = 2; id < 12; id++) {
      lines.add("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"gpu\"}}");
    }
    assertEquals(0, serve(new GqToolsTest.FakeRunner(), StdioServer.MAX_LINE_BYTES, Duration.ofSeconds(30), lines.toArray(String[]::new)));
    assertEquals(11, out.size(), String.join("\n", out));
    for (int i = 1; i < 11; i++) assertEquals((long) i + 1, answer(i).get("id"), "answered in the order sent");
  }

  /** A budget of {@code limit} bytes shared by every charge, refusing at once what does not fit. */
  static final class Pool implements RequestMemory {
    final int limit;
    int held;

    Pool(int limit) {
      this.limit = limit;
    }

    @Override public Charge charge() {
      return new Charge() {
        int mine;

        @Override public void grow(int capacity) throws ProtocolException {
          synchronized (Pool.this) {
            int want = capacity - mine;
            if (want <= 0) return;
            if (held + want > limit) throw new ProtocolException("the daemon is busy with other large requests; send this one again in a moment");
            held += want;
            mine += want;
          }
        }

        @Override public void close() {
          synchronized (Pool.this) {
            held -= mine;
            mine = 0;
          }
        }
      };
    }
  }

  @Test
  void aLineTheBudgetHasNoRoomForIsAnsweredBusyAndTheNextOneIsServedAndAllIsGivenBack() throws Exception {
    Pool pool = new Pool(3 << 20);
    StdioServer server = new StdioServer(new McpSession(new GqTools(new GqToolsTest.FakeRunner(), "/w", () -> Instant.EPOCH)),
        out::add, new PrintStream(err, true, StandardCharsets.UTF_8), Duration.ofSeconds(30));
    String pad = "x".repeat(600 * 1024);
    String fits = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"params\":{\"pad\":\"" + pad + "\"}}";
    String tooBig = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{\"pad\":\"" + pad.repeat(3) + "\"}}";
    String input = String.join("\n", INIT, fits, tooBig, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}") + "\n";
    int code = server.serve(new LineInput(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
        StdioServer.MAX_LINE_BYTES, pool));
    assertEquals(0, code, err.toString());
    assertEquals(4, out.size(), String.join("\n", out));
    assertEquals(2L, answer(1).get("id"), "a long line the budget has room for is answered");
    assertError(2, null, JsonRpc.SERVER_BUSY);
    assertEquals("the daemon is busy with other large requests; send this one again in a moment",
        ((Map<?, ?>) answer(2).get("error")).get("message"));
    assertEquals(4L, answer(3).get("id"), "the line after it is served");
    assertEquals(0, pool.held, "every line's charge is given back once it is answered");
  }
}
