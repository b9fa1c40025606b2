package dev.gq.mcp;

import dev.gq.protocol.Json;
import dev.gq.protocol.ProtocolException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON-RPC 2.0 as {@code gq mcp} reads it, one message a line: what a line is (a request, a
 * notification, a response, or something to answer with an error) and the lines it answers with.
 * A batch (a JSON array) is refused with one error: MCP dropped batches in its 2025-06-18 revision,
 * and every client sends one message a line. Every message here is one line, never an exception's
 * text.
 */
final class JsonRpc {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;
  /** A server error of JSON-RPC's own range: the server is busy; the request may be sent again. */
  static final int SERVER_BUSY = -32000;

  private JsonRpc() {}

  /** What one line is. */
  sealed interface Message {}

  /** A call that wants an answer: {@code params} is null when absent (else an object). */
  record Request(Object id, String method, Map<String, Object> params) implements Message {}

  /** A call that wants none: answered with nothing, even when it fails. */
  record Notification(String method, Map<String, Object> params) implements Message {}

  /** An answer from the client (gq mcp sends no requests, so it is dropped), or a blank line. */
  record Ignored() implements Message {}

  /** A line answered with an error: {@code id} is the request's when it could be read, else null. */
  record Refused(Object id, int code, String message) implements Message {}

  /** Reads one line of the input. */
  static Message read(String line) {
    if (line.isBlank()) return new Ignored();
    Object doc;
    try {
      doc = Json.parse(line);
    } catch (ProtocolException e) {
      return new Refused(null, PARSE_ERROR, "parse error: the line is not JSON (" + e.getMessage() + "); send one JSON-RPC message a line");
    }
    if (doc instanceof List<?>) {
      return new Refused(null, INVALID_REQUEST, "invalid request: batches (JSON arrays) are not supported; send one JSON-RPC message a line");
    }
    if (!(doc instanceof Map<?, ?> raw)) {
      return new Refused(null, INVALID_REQUEST, "invalid request: a message must be a JSON object, not " + kind(doc));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> m = (Map<String, Object>) raw;
    return message(m);
  }

  private static Message message(Map<String, Object> m) {
    boolean hasId = m.containsKey("id");
    Object id = m.get("id");
    if (hasId && !(id == null || id instanceof String || id instanceof Number)) {
      return new Refused(null, INVALID_REQUEST, "invalid request: 'id' must be a string or a number, not " + kind(id));
    }
    if (!"2.0".equals(m.get("jsonrpc"))) {
      String found = m.containsKey("jsonrpc") ? Json.write(m.get("jsonrpc")) : "missing";
      return new Refused(id, INVALID_REQUEST, "invalid request: 'jsonrpc' must be \"2.0\" (" + found + ")");
    }
    if (!m.containsKey("method")) {
      if (hasId && (m.containsKey("result") || m.containsKey("error"))) return new Ignored();
      return new Refused(id, INVALID_REQUEST, "invalid request: no 'method'");
    }
    if (!(m.get("method") instanceof String method)) {
      return new Refused(id, INVALID_REQUEST, "invalid request: 'method' must be a string, not " + kind(m.get("method")));
    }
    if (hasId && id == null) return new Refused(null, INVALID_REQUEST, "invalid request: 'id' must not be null");
    Object params = m.get("params");
    if (params != null && !(params instanceof Map<?, ?>)) {
      return new Refused(id, INVALID_PARAMS, "invalid params: 'params' of " + method + " must be an object, not " + kind(params));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> p = (Map<String, Object>) params;
    return hasId ? new Request(id, method, p) : new Notification(method, p);
  }

  /** The answer to request {@code id}. */
  static String result(Object id, Object result) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("jsonrpc", "2.0");
    m.put("id", id);
    m.put("result", result);
    return Json.write(m);
  }

  /** An error answer to request {@code id} (null when it is not known). */
  static String error(Object id, int code, String message) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("jsonrpc", "2.0");
    m.put("id", id);
    Map<String, Object> e = new LinkedHashMap<>();
    e.put("code", code);
    e.put("message", message);
    m.put("error", e);
    return Json.write(m);
  }

  /** A JSON value's kind in words, for messages. */
  static String kind(Object v) {
    if (v == null) return "null";
    if (v instanceof Map<?, ?>) return "an object";
    if (v instanceof List<?>) return "an array";
    if (v instanceof String) return "a string";
    if (v instanceof Boolean) return "a boolean";
    return "a number";
  }
}
