package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.cli.shell.CommandTree;
import dev.gq.cli.shell.ManPages;
import dev.gq.cli.shell.ReferenceExamples;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The reference's examples are real gq command lines, and each command's manual page shows its own. */
class ReferenceExamplesTest {
  static final ReferenceExamples EXAMPLES = ReferenceExamples.bundled();

  /** The gq command line of an example: from "gq" to a pipe, "&&", a redirection or a comment. */
  static List<String> words(String line) {
    String text = line.substring(line.indexOf("gq "));
    for (String end : List.of(" #", " |", " &&", " >")) if (text.contains(end)) text = text.substring(0, text.indexOf(end));
    List<String> words = new ArrayList<>(ShellWords.split(text.strip()));
    words.remove(0);
    return Gq.shortcut(words);
  }

  @Test
  void everyExampleIsACommandLineGqAccepts() {
    List<String> all = EXAMPLES.all();
    assertTrue(all.size() >= 40, "the reference has its examples: " + all.size());
    for (String line : all) {
      if (!line.contains("gq ")) continue;
      CommandLine tree = Gq.tree(new FakeIo(Path.of("/tmp")), new FakeApi());
      try {
        tree.parseArgs(words(line).toArray(String[]::new));
      } catch (CommandLine.ParameterException e) {
        fail("the example '" + line + "' is not a gq command line: " + e.getMessage());
      }
    }
  }

  @Test
  void aCommandsPageShowsItsOwnExamplesAndASharedSectionIsSplitByCommand() {
    Map<String, String> pages = ManPages.pages(CommandTree.of(Gq.model()));
    assertTrue(pages.get("gq-ps.1").contains(".SH EXAMPLES\n.nf\ngq ps "), pages.get("gq-ps.1"));
    assertTrue(pages.get("gq-ps.1").contains("gq ps \\-t R,PD"), pages.get("gq-ps.1"));
    assertTrue(pages.get("gq-urgent.1").contains("gq urgent 23"), pages.get("gq-urgent.1"));
    assertFalse(pages.get("gq-urgent.1").contains("gq hold 22"), "only its own lines");
    assertTrue(pages.get("gq-daemon-status.1").contains(".SH EXAMPLES\n.nf\ngq daemon status\n.fi"));
    assertTrue(pages.get("gq-run.1").contains("gq \\-g 1 python train.py"), "the shortcut is run's");
    for (String name : List.of("gq-submit.1", "gq-logs.1", "gq-wait.1", "gq-cancel.1", "gq-preempt.1", "gq-resume.1",
        "gq-notify-add.1", "gq-clean.1", "gq-show.1"))
      assertTrue(pages.get(name).contains(".SH EXAMPLES"), name);
    assertTrue(pages.get("gq-ps.1").contains("share/doc/gq"), "the pages point to files that are installed");
  }
}
