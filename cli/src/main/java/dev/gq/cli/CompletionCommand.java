package dev.gq.cli;

import dev.gq.cli.shell.BashCompletion;
import dev.gq.cli.shell.CommandTree;
import dev.gq.cli.shell.FishCompletion;
import dev.gq.cli.shell.ZshCompletion;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code gq completion bash|zsh|fish}: prints the completion script for that shell, written from
 * this very command tree (install.sh installs the same scripts, made at build time).
 */
@Command(name = "completion", description = "Print the shell completion script for bash, zsh or fish.",
    footer = {"", "install.sh installs them. By hand, e.g.: gq completion bash > ~/.local/share/bash-completion/completions/gq"})
final class CompletionCommand implements Callable<Integer> {
  private final Invocation inv;

  @Spec
  CommandSpec spec;

  @Parameters(paramLabel = "SHELL", completionCandidates = Shells.class, description = "bash, zsh or fish.")
  String shell;

  CompletionCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() {
    CommandTree tree = CommandTree.of(inv.runner().model()); // the whole tree: a command line gets only the command it names
    String script = switch (shell) {
      case "bash" -> BashCompletion.script(tree);
      case "zsh" -> ZshCompletion.script(tree);
      case "fish" -> FishCompletion.script(tree);
      default -> throw new UsageException("no completion for shell '" + shell + "'; give bash, zsh or fish");
    };
    inv.io().out().print(script);
    return ExitCode.OK;
  }

  /** The shells there is a script for. */
  static final class Shells implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return List.of("bash", "zsh", "fish").iterator();
    }
  }
}
