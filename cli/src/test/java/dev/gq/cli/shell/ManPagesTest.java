package dev.gq.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.cli.Gq;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A manual page for every command and alias of the model, which groff renders without a warning. */
class ManPagesTest {
  static final CommandTree TREE = CommandTree.of(Gq.model());
  @TempDir Path dir;

  @Test
  void everyCommandAndAliasHasAPage() {
    Map<String, String> pages = ManPages.pages(TREE);
    for (CommandTree c : TREE.all()) {
      String page = pages.get(ManPages.file(c.path()));
      assertTrue(page != null && page.startsWith(".TH "), c.qualifiedName());
      for (String alias : c.aliases()) {
        List<String> path = new ArrayList<>(c.path().subList(0, c.path().size() - 1));
        path.add(alias);
        assertEquals(".so man1/" + ManPages.file(c.path()) + "\n", pages.get(ManPages.file(path)));
      }
    }
    assertTrue(pages.containsKey("gq.1") && pages.containsKey("gq-submit.1") && pages.containsKey("gq-daemon-status.1"));
    assertTrue(pages.containsKey("gq-ls.1") && pages.containsKey("gq-kill.1"));
  }

  @Test
  void groffRendersEveryPageWithItsOptions() throws Exception {
    assumeTrue(Proc.installed("groff"), "groff is not installed: the pages are not rendered");
    ShellFiles.write(dir, TREE);
    Path man = dir.resolve("man");
    for (CommandTree c : TREE.all()) {
      String shown = render(man, "man1/" + ManPages.file(c.path()));
      assertTrue(shown.contains("NAME") && shown.contains("SYNOPSIS"), shown);
      assertTrue(shown.replaceAll("\\s+", " ").contains(c.qualifiedName()), c.qualifiedName() + " in " + shown);
      for (CommandTree.Option o : c.options()) {
        for (String n : o.names()) assertTrue(shown.contains(n), c.qualifiedName() + " " + n + " in " + shown);
      }
      for (CommandTree child : c.children()) assertTrue(shown.contains(child.name()), child.name());
    }
    assertTrue(render(man, "man1/gq-ls.1").replaceAll("\\s+", " ").contains("gq-ps - "), "an alias's page is its command's");
  }

  /** The page as text, from the top of the manual tree (where {@code .so} names are resolved). */
  private static String render(Path man, String page) throws Exception {
    Proc p = Proc.run(man, Map.of(), "groff", "-man", "-Tascii", "-P-cbu", "-ww", page);
    assertEquals(0, p.code(), p.err());
    assertEquals("", p.err(), page);
    return p.out();
  }
}
