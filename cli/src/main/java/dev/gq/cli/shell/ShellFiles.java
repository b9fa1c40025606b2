package dev.gq.cli.shell;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes what install.sh installs for the shell, from gq's command tree, at build time:
 * {@code DIR/completions/gq.bash}, {@code _gq} (zsh) and {@code gq.fish}, and
 * {@code DIR/man/man1/*.1}, one manual page per command and alias. Run by {@code dev.gq.cli.ShellFilesMain}.
 */
public final class ShellFiles {
  private ShellFiles() {}

  /** Writes the files for {@code tree} under {@code dir}. */
  public static void write(Path dir, CommandTree tree) throws IOException {
    Path completions = Files.createDirectories(dir.resolve("completions"));
    put(completions.resolve("gq.bash"), BashCompletion.script(tree));
    put(completions.resolve("_gq"), ZshCompletion.script(tree));
    put(completions.resolve("gq.fish"), FishCompletion.script(tree));
    Path man = Files.createDirectories(dir.resolve("man/man1"));
    for (Map.Entry<String, String> page : ManPages.pages(tree).entrySet()) put(man.resolve(page.getKey()), page.getValue());
  }

  private static void put(Path file, String text) throws IOException {
    Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
