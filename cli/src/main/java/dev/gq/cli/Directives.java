package dev.gq.cli;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code #gq} directives of a job script: lines {@code #gq --gpus=N}, {@code #gq --name=TEXT},
 * {@code #gq --group=TEXT} and {@code #gq --key=TEXT} (leading blanks allowed, values trimmed,
 * a later line wins). Any other line starting with {@code #gq} is refused naming its line, so a
 * typo never passes silently. {@code --gpus=0} means a CPU-only job. Null fields were not given.
 */
record Directives(Integer gpus, String name, String group, String key) {
  private static final Pattern LINE = Pattern.compile("#gq[ \\t]+--(gpus|name|group|key)=(.*)");

  static final Directives NONE = new Directives(null, null, null, null);

  /** Reads the directives of a script's text. */
  static Directives parse(String script) {
    List<String> lines = script.lines().toList();
    Directives d = NONE;
    for (int i = 0; i < lines.size(); i++) {
      String text = lines.get(i).strip();
      if (text.startsWith("#gq")) d = d.with(text, i + 1);
    }
    return d;
  }

  private Directives with(String text, int line) {
    Matcher m = LINE.matcher(text);
    if (!m.matches()) {
      throw new RefusedException("unsupported or malformed #gq directive on line " + line + ": '" + text
          + "'; use #gq --gpus=N, --name=TEXT, --group=TEXT or --key=TEXT");
    }
    String option = m.group(1);
    String value = m.group(2).strip();
    return switch (option) {
      case "gpus" -> new Directives(gpuCount(value, line), name, group, key);
      case "name" -> new Directives(gpus, label(option, value, line), group, key);
      case "group" -> new Directives(gpus, name, label(option, value, line), key);
      default -> new Directives(gpus, name, group, label(option, value, line));
    };
  }

  private static int gpuCount(String value, int line) {
    if (!value.matches("\\d{1,6}")) {
      throw new RefusedException("invalid GPU count on line " + line + ": '" + value + "'; use a whole number, 0 or more");
    }
    return Integer.parseInt(value);
  }

  private static String label(String option, String value, int line) {
    if (value.isEmpty()) throw new RefusedException("empty " + option + " on line " + line);
    String problem = Labels.problem("the " + option + " on line " + line, value);
    if (problem != null) throw new RefusedException(problem);
    return value;
  }
}
