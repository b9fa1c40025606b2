package dev.gq.cli;

import dev.gq.protocol.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * The failure of a command run with {@code --json}, for the script that asked for JSON: one line on
 * standard output, {@code {"error":"MESSAGE","exit_code":N}} (docs/schemas/error.schema.json), where
 * MESSAGE is the line standard error gets after {@code gq: }. Whether {@code --json} was asked is read
 * from gq's own options, never from a job's command line ({@code gq run jq --json} asks for nothing).
 */
final class JsonError {
  private JsonError() {}

  /** Whether the command that ran asked for JSON. */
  static boolean asked(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.hasMatchedOption("--json")) return true;
    }
    return false;
  }

  /**
   * Whether a command line that could not be parsed asked for JSON: {@code --json} read before the
   * failure, or among the words of the command that failed (for {@code gq run}, up to the job's
   * command; for any command, up to {@code --}). An unknown command ({@code gq psx --json}) counts.
   */
  static boolean asked(ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    if (cl == null) return false;
    if (cl.getParent() != null && cl.getCommandSpec().findOption("--json") == null) return false;
    ParseResult partial = cl.getParseResult();
    if (partial != null && partial.hasMatchedOption("--json")) return true;
    for (int i = wordsOf(cl, args); i < args.length; i++) {
      String a = args[i];
      if (a.equals("--")) return false;
      if (a.equals("--json")) return true;
      if (!a.startsWith("-") || a.equals("-")) {
        if (cl.isStopAtPositional()) return false; // the job's command starts here
        continue;
      }
      OptionSpec o = cl.getCommandSpec().findOption(a);
      if (o != null && o.arity().max() > 0) i++; // its value, which may look like anything
    }
    return false;
  }

  /** Where the words of {@code cl} start in {@code args}: after its name and the names of the commands above it. */
  private static int wordsOf(CommandLine cl, String[] args) {
    List<CommandLine> path = new ArrayList<>();
    for (CommandLine c = cl; c.getParent() != null; c = c.getParent()) path.add(0, c);
    int i = 0;
    for (CommandLine c : path) {
      Set<String> names = c.getCommandSpec().names();
      while (i < args.length && !names.contains(args[i])) i++;
      i++;
    }
    return Math.min(i, args.length);
  }

  /** The JSON line for {@code message} and {@code exitCode}. */
  static String line(String message, int exitCode) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("error", message);
    m.put("exit_code", exitCode);
    return Json.write(m);
  }
}
