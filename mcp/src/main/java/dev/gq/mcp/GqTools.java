package dev.gq.mcp;

import dev.gq.core.job.PrintableText;
import dev.gq.mcp.Tool.Reply;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every tool {@code gq mcp} offers, by name, and the one way to call them: the arguments are
 * checked against the tool's schema and by the tool, and whatever goes wrong (an unknown tool, a
 * bad argument, a failure in the server) is one error reply, never an exception out of the server.
 * Every reply's text shows the characters {@link PrintableText} keeps off a terminal escaped.
 */
public final class GqTools {
  private final Map<String, Tool> tools = new LinkedHashMap<>();

  public GqTools(GqRunner runner, String cwd, Supplier<Instant> clock) {
    Commands gq = new Commands(runner, cwd);
    List<Tool> all = new ArrayList<>(ReadTools.all(gq));
    all.addAll(new WriteTools(gq, clock).all());
    for (Tool t : all) tools.put(t.name(), t);
  }

  public List<Tool> all() {
    return List.copyOf(tools.values());
  }

  /** Calls tool {@code name} with {@code arguments} (null: none). */
  public Reply call(String name, Map<String, Object> arguments) {
    Tool t = tools.get(name);
    if (t == null) return Reply.error("there is no tool '" + name + "'; the tools are: " + String.join(", ", tools.keySet()));
    try {
      @SuppressWarnings("unchecked")
      Map<String, Object> props = (Map<String, Object>) t.inputSchema().get("properties");
      return escaped(t.handler().apply(new Args(name, arguments, props.keySet())));
    } catch (BadArgument e) {
      return Reply.error(e.getMessage());
    } catch (ServerBusy e) {
      throw e; // answered as a JSON-RPC error: the call may be sent again
    } catch (RuntimeException e) {
      return Reply.error(name + " failed inside gq mcp: " + e + "; the server keeps running");
    }
  }

  /** What a job, another user or a shared file wrote reaches the assistant as it reaches a terminal. */
  private static Reply escaped(Reply r) {
    return new Reply(PrintableText.escapeLines(r.text()), r.error());
  }
}
