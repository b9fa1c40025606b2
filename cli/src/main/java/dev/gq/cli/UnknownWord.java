package dev.gq.cli;

import dev.gq.core.job.Suggestions;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The one line for a word gq does not know, with what the user most likely meant: a command or an
 * option a typo away ({@code sumbit}: did you mean 'submit'?), the gq command for a word from
 * another queue ({@code follow}: 'gq logs -f JOB'), or, for a program on the caller's PATH typed
 * without {@code run} or {@code -g}, how to queue it. Used by the {@link ErrorHandler}.
 */
final class UnknownWord {
  /** Words other queues use for what gq calls differently, and what to type instead. */
  private static final Map<String, String> ELSEWHERE = Map.of(
      "add", "to queue a command: 'gq run CMD...' or 'gq -g N CMD...'",
      "follow", "to follow a job's output: 'gq logs -f JOB'",
      "tail", "to follow a job's output: 'gq logs -f JOB'",
      "info", "to see one job: 'gq show JOB'",
      "stop", "to stop a job: 'gq cancel JOB' (the daemon: 'gq daemon stop')",
      "pause", "to keep waiting jobs from starting: 'gq hold --all' (one group: 'gq hold --group GROUP')",
      "restart", "to run an ended job again: 'gq retry JOB' (the daemon: 'gq daemon restart')");

  private UnknownWord() {}

  /** {@code unknown command 'WORD'} with the best hint for it, for a command that has subcommands. */
  static String command(String word, CommandLine parent, Map<String, String> env, Path cwd) {
    String text = "unknown command '" + word + "'";
    boolean atRoot = parent.getParent() == null;
    if (atRoot && ELSEWHERE.containsKey(word)) return text + "; " + ELSEWHERE.get(word);
    List<String> near = nearCommands(word, parent);
    boolean program = atRoot && onPath(word, env, cwd);
    String queue = "'gq run " + word + " ...' or 'gq -g N " + word + " ...'";
    if (!near.isEmpty() && program) return text + "; did you mean " + either(near) + "? (to queue the program: " + queue + ")";
    if (!near.isEmpty()) return text + "; did you mean " + either(near) + "?";
    if (program) return text + "; to queue it as a job: " + queue;
    return text;
  }

  /** {@code unknown option 'WORD'}, with the options of that command a typo away. */
  static String option(String word, CommandLine cl) {
    String name = word.contains("=") ? word.substring(0, word.indexOf('=')) : word;
    List<String> names = new ArrayList<>();
    for (OptionSpec o : cl.getCommandSpec().options()) names.addAll(List.of(o.names()));
    // at the top, -g/--gpus is the submit shortcut
    if (cl.getParent() == null) names.addAll(List.of("-g", "--gpus"));
    List<String> near = Suggestions.closest(name, names);
    String text = "unknown option '" + name + "'";
    return near.isEmpty() ? text : text + "; did you mean " + either(near) + "?";
  }

  /** The subcommands (or aliases) a typo away, one name per command. */
  private static List<String> nearCommands(String word, CommandLine parent) {
    Map<CommandLine, String> byCommand = new LinkedHashMap<>();
    for (String name : Suggestions.closest(word, parent.getSubcommands().keySet())) {
      byCommand.putIfAbsent(parent.getSubcommands().get(name), name);
    }
    return List.copyOf(byCommand.values());
  }

  private static String either(List<String> names) {
    List<String> quoted = names.stream().map(n -> "'" + n + "'").toList();
    if (quoted.size() == 1) return quoted.get(0);
    return String.join(", ", quoted.subList(0, quoted.size() - 1)) + " or " + quoted.get(quoted.size() - 1);
  }

  /** Whether the word names an executable file: a path, or a program in the caller's PATH. */
  static boolean onPath(String word, Map<String, String> env, Path cwd) {
    if (word.isEmpty() || word.startsWith("-")) return false;
    try {
      if (word.contains("/")) return executable(cwd == null ? Path.of(word) : cwd.resolve(word));
      String path = env == null ? null : env.get("PATH");
      if (path == null) return false;
      for (String dir : path.split(":", -1)) {
        Path base = dir.isEmpty() ? cwd : Path.of(dir);
        if (base != null && executable(base.resolve(word))) return true;
      }
    } catch (InvalidPathException e) {
      return false;
    }
    return false;
  }

  private static boolean executable(Path p) {
    return Files.isRegularFile(p) && Files.isExecutable(p);
  }
}
