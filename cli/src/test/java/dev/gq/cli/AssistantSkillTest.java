package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The skill file an AI assistant reads (docs/assistant/SKILL.md) names only commands and options gq
 * has: each {@code gq ...} in it, its placeholders filled in, parses against the command tree.
 */
class AssistantSkillTest {
  private static final Path SKILL = Path.of(System.getProperty("user.dir")).resolve("../docs/assistant/SKILL.md").normalize();

  @Test
  void everyCommandTheSkillFileNamesParses() throws Exception {
    String text = Files.readString(SKILL);
    assertTrue(text.startsWith("---\nname: gq\ndescription: "), "the front matter an assistant reads first");
    Matcher m = Pattern.compile("`(gq [^`]*)`").matcher(text);
    List<String> checked = new ArrayList<>();
    while (m.find()) {
      String line = m.group(1).replaceAll("\\b(ID|TRAIN|EVAL)\\b", "12").replace("ID...", "12")
          .replace("NAME", "sweep").replace("CELL", "lr-1").replace("FILE", "cells.txt").replace("...", "x");
      if (line.equals("gq") || line.contains("COMMAND")) continue;
      List<String> words = new ArrayList<>(List.of(line.split(" +")));
      words.remove(0);
      // 'gq -g N CMD' is 'gq run -g N CMD'
      if (words.get(0).startsWith("-")) words.add(0, "run");
      CommandLine cl = Gq.model();
      if (words.size() == 1) {
        // a command named in prose
        assertTrue(cl.getSubcommands().containsKey(words.get(0)), "no command '" + m.group(1) + "'");
        checked.add(line);
        continue;
      }
      try {
        cl.parseArgs(words.toArray(String[]::new));
      } catch (CommandLine.ParameterException e) {
        throw new AssertionError("'" + m.group(1) + "' does not parse: " + e.getMessage(), e);
      }
      checked.add(line);
    }
    assertTrue(checked.size() > 20, "the skill file's commands were read: " + checked);
    assertEquals(List.of(), checked.stream().filter(c -> c.contains("--json") && c.startsWith("gq logs")).toList(),
        "gq logs prints the log itself, no JSON");
  }
}
