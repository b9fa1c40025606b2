package dev.gq.cli;

import dev.gq.cli.shell.CommandTree;
import dev.gq.cli.shell.ShellFiles;
import java.io.IOException;
import java.nio.file.Path;

/**
 * {@code ShellFilesMain DIR}: writes the shell completions and manual pages of gq's command tree
 * under {@code DIR} ({@link ShellFiles}), at build time, for install.sh.
 */
public final class ShellFilesMain {
  private ShellFilesMain() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) throw new IllegalArgumentException("usage: ShellFilesMain DIR");
    ShellFiles.write(Path.of(args[0]), CommandTree.of(Gq.model()));
  }
}
