package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class UrgentCommandTest {
  @Test
  void urgentMovesAJobToTheFront() {
    Cli cli = new Cli(Path.of("/tmp"));
    Cli.Result r = cli.run("urgent", "23");
    assertEquals(0, r.code(), r.toString());
    assertEquals(java.util.List.of(23L), cli.api.fronted);
  }

  @Test
  void topWithAJobNamesUrgentAndChangesNothing() {
    Cli cli = new Cli(Path.of("/tmp"));
    Cli.Result r = cli.run("top", "23");
    assertEquals(2, r.code(), r.toString());
    assertEquals("gq: 'gq top' no longer moves a job: 'gq urgent 23' moves it to the front of the queue\n"
        + "Try 'gq top --help'.\n", r.err());
    assertTrue(cli.api.fronted.isEmpty());
  }

  @Test
  void topEscapesTheWordItEchoes() {
    Cli cli = new Cli(Path.of("/tmp"));
    Cli.Result odd = cli.run("top", "\u001b[31m");
    assertEquals(2, odd.code());
    assertFalse(odd.err().contains("\u001b"), odd.err());
  }

  @Test
  void topAndUrgentAreBothInTheHelp() {
    Cli cli = new Cli(Path.of("/tmp"));
    Cli.Result help = cli.run("--help");
    assertTrue(help.out().contains("urgent"), help.out());
    assertTrue(help.out().lines().anyMatch(l -> l.trim().startsWith("top ")), help.out());
  }
}
