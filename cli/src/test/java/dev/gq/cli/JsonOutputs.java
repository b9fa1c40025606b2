package dev.gq.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Which schema in {@code docs/schemas} each command's {@code --json} output follows, read from the
 * real command tree (so {@code --json} inside a job's command is not taken for gq's), and a check of
 * one command's standard output against it. Test code, shared with the end-to-end tests.
 */
public final class JsonOutputs {
  /**
   * The schema of each command path that prints JSON. {@code submit --batch} prints a list;
   * {@code events} one object per line. A command given {@code --json} and not listed here fails
   * the check, so a new JSON output cannot go without a schema.
   */
  static final Map<String, String> SCHEMAS = Map.ofEntries(
      Map.entry("run", "submit.schema.json"),
      Map.entry("submit", "submit.schema.json"),
      Map.entry("submit --batch", "submit-batch.schema.json"),
      Map.entry("ps", "ps.schema.json"),
      Map.entry("show", "show.schema.json"),
      Map.entry("gpu", "gpu.schema.json"),
      Map.entry("groups", "groups.schema.json"),
      Map.entry("report", "report.schema.json"),
      Map.entry("who", "who.schema.json"),
      Map.entry("events", "events.schema.json"),
      Map.entry("eta", "eta.schema.json"),
      Map.entry("preempt", "preempt.schema.json"),
      Map.entry("resume", "resume.schema.json"),
      Map.entry("adopt", "adopt.schema.json"),
      Map.entry("notify list", "notify-list.schema.json"));

  /** What any command run with --json prints when it is refused or misused. */
  static final String ERROR_SCHEMA = "error.schema.json";

  private JsonOutputs() {}

  /** Whether {@code out} is one JSON object with an "error" member: a command's error under --json. */
  static boolean isErrorObject(String out) {
    return !out.isBlank() && JsonSchemas.isJson(out) && JsonSchemas.parse(out).has("error");
  }

  /**
   * The command path whose JSON output {@code argv} asks for ("ps", "submit --batch"), or null when
   * it asks for none (no {@code --json} for gq, or a command line gq refuses).
   */
  public static String jsonCommand(List<String> argv) {
    if (!argv.contains("--json")) return null;  // spares most end-to-end calls building the tree
    CommandLine tree = Gq.tree(new FakeIo(Path.of("/")), null);
    ParseResult leaf;
    try {
      leaf = tree.parseArgs(Gq.shortcut(argv).toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      return null;
    }
    List<String> path = new ArrayList<>();
    while (leaf.hasSubcommand()) {
      leaf = leaf.subcommand();
      path.add(leaf.commandSpec().name());
    }
    if (!leaf.hasMatchedOption("--json")) return null;
    if (leaf.hasMatchedOption("--batch")) path.add("--batch");
    return String.join(" ", path);
  }

  /**
   * Checks what one command line printed on standard output against the schema of its JSON output:
   * one JSON value, or for {@code events} one per line. Does nothing when it asks for no JSON or
   * printed nothing. A refused or misused command (exit 1 or 2) that prints an error object is
   * checked against error.schema.json, whatever its command line. A command that failed may also have
   * stopped in the middle of its output: what it printed is checked when it is whole JSON (a
   * {@code ps} that skipped a damaged record still prints a whole list).
   */
  public static void checkOutput(List<String> argv, int code, String out) {
    if ((code == 1 || code == 2) && isErrorObject(out)) {
      List<String> problems = JsonSchemas.problems(ERROR_SCHEMA, JsonSchemas.parse(out));
      if (!problems.isEmpty() || JsonSchemas.parse(out).get("exit_code").asInt() != code) {
        throw new AssertionError("the error of gq " + String.join(" ", argv) + " (exit " + code + ") is not valid against docs/schemas/"
            + ERROR_SCHEMA + ": " + problems + "\noutput: " + out);
      }
      return;
    }
    String command = jsonCommand(argv);
    if (command == null || out.isBlank()) return;
    String schema = SCHEMAS.get(command);
    if (schema == null) {
      throw new AssertionError("'gq " + command + " --json' has no schema: add one to docs/schemas and JsonOutputs");
    }
    List<String> texts = command.equals("events") ? out.lines().filter(l -> !l.isBlank()).toList() : List.of(out);
    for (String text : texts) {
      if (code != 0 && !JsonSchemas.isJson(text)) return;
      List<String> problems = JsonSchemas.problems(schema, JsonSchemas.parse(text));
      if (!problems.isEmpty()) {
        throw new AssertionError("the output of gq " + String.join(" ", argv) + " is not valid against docs/schemas/"
            + schema + ": " + problems + "\noutput: " + out);
      }
    }
  }

}
