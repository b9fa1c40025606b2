package dev.gq.mcp;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.mcp.JsonRpc.Ignored;
import dev.gq.mcp.JsonRpc.Message;
import dev.gq.mcp.JsonRpc.Notification;
import dev.gq.mcp.JsonRpc.Refused;
import dev.gq.mcp.JsonRpc.Request;
import java.math.BigInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What each line is under JSON-RPC 2.0, and the error code and one-line message of each bad one. */
class JsonRpcTest {

  private static Refused refused(String line) {
    Message m = JsonRpc.read(line);
    assertInstanceOf(Refused.class, m, line);
    Refused r = (Refused) m;
    assertFalse(r.message().contains("\n") || r.message().contains("Exception"), r.message());
    return r;
  }

  @Test
  void readsRequestsNotificationsAndAnswers() {
    assertEquals(new Request(7L, "ping", null), JsonRpc.read("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}"));
    assertEquals(new Request("a", "tools/list", Map.of()), JsonRpc.read("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\",\"params\":{}}"));
    assertEquals(new Notification("notifications/initialized", null), JsonRpc.read("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
    assertEquals(new Ignored(), JsonRpc.read("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}"));
    assertEquals(new Ignored(), JsonRpc.read(""));
    assertEquals(new Ignored(), JsonRpc.read("  \t"));
  }

  @Test
  void malformedJsonIsAParseErrorWithoutAnId() {
    Refused r = refused("{\"jsonrpc\":\"2.0\",");
    assertEquals(JsonRpc.PARSE_ERROR, r.code());
    assertNull(r.id());
    assertEquals(JsonRpc.PARSE_ERROR, refused("not json").code());
  }

  @Test
  void aNonObjectOrABatchIsAnInvalidRequest() {
    assertEquals(new Refused(null, JsonRpc.INVALID_REQUEST, "invalid request: a message must be a JSON object, not a number"), refused("12345"));
    assertEquals(JsonRpc.INVALID_REQUEST, refused("\"ping\"").code());
    Refused batch = refused("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
    assertEquals(JsonRpc.INVALID_REQUEST, batch.code());
    assertTrue(batch.message().contains("batches"), batch.message());
    assertEquals(JsonRpc.INVALID_REQUEST, refused("[]").code());
  }

  @Test
  void aMissingOrWrongVersionIsAnInvalidRequestAnsweredToItsId() {
    assertEquals(new Refused(8L, JsonRpc.INVALID_REQUEST, "invalid request: 'jsonrpc' must be \"2.0\" (missing)"),
        refused("{\"id\":8,\"method\":\"ping\"}"));
    assertEquals(new Refused(9L, JsonRpc.INVALID_REQUEST, "invalid request: 'jsonrpc' must be \"2.0\" (\"1.0\")"),
        refused("{\"jsonrpc\":\"1.0\",\"id\":9,\"method\":\"ping\"}"));
    assertEquals(new Refused(null, JsonRpc.INVALID_REQUEST, "invalid request: 'jsonrpc' must be \"2.0\" (2.0)"),
        refused("{\"jsonrpc\":2.0,\"method\":\"ping\"}"));
  }

  @Test
  void anIdThatIsAnObjectArrayOrNullIsAnInvalidRequestWithoutAnId() {
    for (String id : new String[] {"{\"a\":1}", "[1]", "true", "null"}) {
      Refused r = refused("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}");
      assertEquals(JsonRpc.INVALID_REQUEST, r.code(), id);
      assertNull(r.id(), id);
    }
  }

  @Test
  void aMissingOrNonStringMethodIsAnInvalidRequest() {
    assertEquals(new Refused(1L, JsonRpc.INVALID_REQUEST, "invalid request: no 'method'"), refused("{\"jsonrpc\":\"2.0\",\"id\":1}"));
    assertEquals(JsonRpc.INVALID_REQUEST, refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}").code());
  }

  @Test
  void paramsThatAreNotAnObjectAreInvalidParamsInPlainWords() {
    assertEquals(new Refused(9L, JsonRpc.INVALID_PARAMS, "invalid params: 'params' of tools/call must be an object, not a string"),
        refused("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":\"x\"}"));
    assertEquals(JsonRpc.INVALID_PARAMS, refused("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\",\"params\":[1]}").code());
  }

  @Test
  void answersEchoTheIdAsSentEvenBeyondALong() {
    Object id = ((Request) JsonRpc.read("{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"method\":\"ping\"}")).id();
    assertEquals(new BigInteger("18446744073709551616"), id);
    assertEquals("{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"result\":{}}", JsonRpc.result(id, Map.of()));
    assertEquals("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"parse error\"}}",
        JsonRpc.error(null, JsonRpc.PARSE_ERROR, "parse error"));
  }
}
