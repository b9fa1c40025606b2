package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.cli.shell.BashCompletion;
import dev.gq.cli.shell.CommandTree;
import dev.gq.cli.shell.FishCompletion;
import dev.gq.cli.shell.ZshCompletion;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompletionCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  @Test
  void printsTheScriptOfTheLiveCommandTree() {
    CommandTree tree = CommandTree.of(Gq.model());
    assertEquals(BashCompletion.script(tree), cli.run("completion", "bash").out());
    assertEquals(ZshCompletion.script(tree), cli.run("completion", "zsh").out());
    assertEquals(FishCompletion.script(tree), cli.run("completion", "fish").out());
    assertTrue(cli.run("completion", "bash").out().contains("'/completion') REPLY='completion'"));
  }

  @Test
  void anotherShellIsAUsageError() {
    Cli.Result r = cli.run("completion", "tcsh");
    assertEquals(2, r.code());
    assertEquals("gq: no completion for shell 'tcsh'; give bash, zsh or fish\nTry 'gq completion --help'.\n", r.err());
  }
}
