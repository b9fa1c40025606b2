package dev.gq.mcp;

import java.util.Map;
import java.util.function.Function;

/**
 * One tool the server offers: its name, the description an assistant reads (it states the rules),
 * the JSON schema of its arguments, and what it does with them. Independent of the MCP SDK, so
 * that the tools are tested without a transport.
 */
public record Tool(String name, String description, Map<String, Object> inputSchema,
    Function<Args, Reply> handler) {

  /** A tool's answer: text for the assistant, and whether it is an error. */
  public record Reply(String text, boolean error) {
    static Reply ok(String text) {
      return new Reply(text, false);
    }

    static Reply error(String text) {
      return new Reply(text, true);
    }
  }
}
