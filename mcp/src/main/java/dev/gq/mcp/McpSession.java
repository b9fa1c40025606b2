package dev.gq.mcp;

import dev.gq.mcp.JsonRpc.Ignored;
import dev.gq.mcp.JsonRpc.Message;
import dev.gq.mcp.JsonRpc.Notification;
import dev.gq.mcp.JsonRpc.Refused;
import dev.gq.mcp.JsonRpc.Request;
import dev.gq.mcp.Tool.Reply;
import dev.gq.protocol.Release;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Model Context Protocol methods {@code gq mcp} answers ({@code initialize}, {@code ping},
 * {@code tools/list}, {@code tools/call}) on top of {@link JsonRpc}: each message read becomes an
 * answer now, a tool call to run (the only step that waits on gq), or nothing. Parameters of the
 * wrong type are an invalid-params error in one line; a tool's own failure is a tool result marked
 * as an error, as MCP asks, so that the assistant reads it.
 */
final class McpSession {
  /** The revisions this server speaks, newest first; a client asking for another gets the newest. */
  static final List<String> PROTOCOL_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
  private static final int MAX_NAME_CHARS = 80;
  /** What the server tells the assistant when it starts: how to use the tools safely. */
  static final String INSTRUCTIONS = "gq queues commands for whole GPUs of this machine. Never guess a job id: find it"
      + " with ps. The write tools (submit, cancel, retry, preempt, resume) only act with confirm: true; call them"
      + " without it first, show the user what would happen, and confirm only after the user agrees. Give each"
      + " cell of a sweep a key and the sweep a group.";

  /** What to do with one message. */
  sealed interface Step {}

  /** Write this line now. */
  record Answer(String line) implements Step {}

  /** Run tool {@code tool} and answer request {@code id} with its result ({@link #answer}). */
  record Call(Object id, String tool, Map<String, Object> arguments) implements Step {}

  /** Write nothing. */
  record Nothing() implements Step {}

  private final GqTools tools;

  McpSession(GqTools tools) {
    this.tools = tools;
  }

  /** The step for one line of input. */
  Step step(String line) {
    Message m = JsonRpc.read(line);
    return switch (m) {
      case Ignored i -> new Nothing();
      case Notification n -> new Nothing(); // initialized, cancelled, progress: nothing to do
      case Refused r -> new Answer(JsonRpc.error(r.id(), r.code(), r.message()));
      case Request r -> request(r);
    };
  }

  /** Runs a tool call and returns its answer line. */
  String answer(Call call) {
    Reply reply = tools.call(call.tool(), call.arguments());
    Map<String, Object> result = new LinkedHashMap<>();
    Map<String, Object> text = new LinkedHashMap<>();
    text.put("type", "text");
    text.put("text", reply.text());
    result.put("content", List.of(text));
    result.put("isError", reply.error());
    return JsonRpc.result(call.id(), result);
  }

  private Step request(Request r) {
    Map<String, Object> p = r.params() == null ? Map.of() : r.params();
    return switch (r.method()) {
      case "initialize" -> initialize(r.id(), p);
      case "ping" -> new Answer(JsonRpc.result(r.id(), Map.of()));
      case "tools/list" -> new Answer(JsonRpc.result(r.id(), Map.of("tools", toolList())));
      case "tools/call" -> call(r.id(), p);
      default -> new Answer(JsonRpc.error(r.id(), JsonRpc.METHOD_NOT_FOUND, "method not found: " + clip(r.method())
          + "; gq mcp answers initialize, ping, tools/list and tools/call"));
    };
  }

  private Step initialize(Object id, Map<String, Object> p) {
    if (!(p.get("protocolVersion") instanceof String asked)) {
      return invalidParams(id, "initialize needs 'protocolVersion', a string, not " + JsonRpc.kind(p.get("protocolVersion")));
    }
    for (String name : List.of("capabilities", "clientInfo")) {
      Object v = p.get(name);
      if (v != null && !(v instanceof Map<?, ?>)) return invalidParams(id, "initialize: '" + name + "' must be an object, not " + JsonRpc.kind(v));
    }
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("protocolVersion", PROTOCOL_VERSIONS.contains(asked) ? asked : PROTOCOL_VERSIONS.get(0));
    result.put("capabilities", Map.of("tools", Map.of("listChanged", false)));
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("name", "gq");
    info.put("version", Release.VERSION);
    result.put("serverInfo", info);
    result.put("instructions", INSTRUCTIONS);
    return new Answer(JsonRpc.result(id, result));
  }

  private Step call(Object id, Map<String, Object> p) {
    if (!(p.get("name") instanceof String name)) {
      return invalidParams(id, "tools/call needs 'name', the tool's name as a string, not " + JsonRpc.kind(p.get("name")));
    }
    Object arguments = p.get("arguments");
    if (arguments != null && !(arguments instanceof Map<?, ?>)) {
      return invalidParams(id, "tools/call: 'arguments' of " + clip(name) + " must be an object, not " + JsonRpc.kind(arguments));
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> args = (Map<String, Object>) arguments;
    return new Call(id, name, args);
  }

  private List<Object> toolList() {
    List<Object> list = new ArrayList<>();
    for (Tool t : tools.all()) {
      Map<String, Object> tool = new LinkedHashMap<>();
      tool.put("name", t.name());
      tool.put("description", t.description());
      tool.put("inputSchema", t.inputSchema());
      list.add(tool);
    }
    return list;
  }

  private static Answer invalidParams(Object id, String message) {
    return new Answer(JsonRpc.error(id, JsonRpc.INVALID_PARAMS, "invalid params: " + message));
  }

  /** A name from the input, cut so that an answer never repeats a huge value. */
  static String clip(String s) {
    return s.length() <= MAX_NAME_CHARS ? s : s.substring(0, MAX_NAME_CHARS) + "...";
  }
}
