package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A command line that names a known command gets a tree of that command alone; anything else, the whole tree. */
class OneCommandTreeTest {
  @Test
  void theCommandANameOrAliasStandsFor() {
    assertEquals("ps", Gq.only(List.of("ps", "-a")));
    assertEquals("ps", Gq.only(List.of("ls")));
    assertEquals("logs", Gq.only(List.of("--verbose", "log", "3")));
    assertEquals("cancel", Gq.only(List.of("kill", "3")));
    assertEquals("run", Gq.only(Gq.shortcut(List.of("-g", "1", "python", "x.py"))));
    assertEquals("run", Gq.only(Gq.shortcut(List.of("--to", "slurm", "-g", "1", "true"))));
    assertNull(Gq.only(List.of()));
    assertNull(Gq.only(List.of("--help")));
    assertNull(Gq.only(List.of("help", "ps")));
    assertNull(Gq.only(List.of("pss")), "a typo gets the whole tree, for its suggestions");
  }

  @Test
  void everyCommandOfTheWholeTreeIsKnownByName() {
    for (String name : Gq.model().getSubcommands().keySet())
      if (!name.equals("help")) assertNotNull(Gq.only(List.of(name)), name);
  }

  @Test
  void everyNameAndAliasOfTheTreeStandsForTheCommandItBuilds() {
    Gq.model().getSubcommands().forEach((name, sub) -> {
      if (!name.equals("help")) assertEquals(sub.getCommandSpec().name(), Gq.only(List.of(name)), name);
    });
  }
}
