package dev.gq.cli.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The examples of each command, read from the {@code **Examples**} blocks of docs/reference.md (a
 * copy is built into the jar): one source for the reference and the manual pages' EXAMPLES. A
 * command's examples are the lines of its section's block that run it: {@code gq daemon status}'s
 * come from the {@code gq daemon} section, {@code gq release}'s from the section it shares with
 * {@code gq hold}, {@code gq run}'s also as the {@code gq -g N} shortcut.
 */
public final class ReferenceExamples {
  private final List<Section> sections;

  private record Section(String heading, List<String> examples) {}

  private ReferenceExamples(List<Section> sections) {
    this.sections = sections;
  }

  /** The examples of the reference built into gq. */
  public static ReferenceExamples bundled() {
    try (InputStream in = ReferenceExamples.class.getResourceAsStream("reference.md")) {
      if (in == null) return parse("");
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The Examples blocks of a reference's text, by section. */
  public static ReferenceExamples parse(String markdown) {
    List<Section> out = new ArrayList<>();
    String heading = null;
    List<String> block = null;
    boolean examples = false;
    for (String line : markdown.lines().toList()) {
      if (line.startsWith("## ")) {
        heading = line;
        examples = false;
      } else if (line.equals("**Examples**")) {
        examples = true;
      } else if (examples && line.equals("```")) {
        if (block == null) block = new ArrayList<>();
        else {
          out.add(new Section(heading, List.copyOf(block)));
          block = null;
          examples = false;
        }
      } else if (block != null) {
        block.add(line);
      }
    }
    return new ReferenceExamples(List.copyOf(out));
  }

  /** The example lines that run {@code gq PATH}, from the section of the command or of the nearest one above it. */
  public List<String> of(List<String> path) {
    if (path.isEmpty()) return List.of();
    String command = "gq " + String.join(" ", path);
    for (int n = path.size(); n > 0; n--) {
      String named = "`gq " + String.join(" ", path.subList(0, n)) + "`";
      for (Section s : sections) {
        if (!s.heading().contains(named)) continue;
        List<String> lines = s.examples().stream().filter(l -> runs(l, command, path)).toList();
        if (!lines.isEmpty()) return lines;
      }
    }
    return List.of();
  }

  /** Every example line, for checking them against the command tree. */
  public List<String> all() {
    return sections.stream().flatMap(s -> s.examples().stream()).toList();
  }

  private static boolean runs(String line, String command, List<String> path) {
    String text = line.contains("| gq ") ? line.substring(line.indexOf("| gq ") + 2) : line;
    if (text.equals(command) || text.startsWith(command + " ")) return true;
    return path.equals(List.of("run")) && text.startsWith("gq -g ");
  }
}
