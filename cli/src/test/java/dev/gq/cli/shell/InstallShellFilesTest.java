package dev.gq.cli.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.cli.Gq;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * install.sh (the real script, on a source tree whose jars and shim are stand-ins) puts the
 * completions and manual pages where README and docs/reference.md say, replacing gq's old pages only.
 */
class InstallShellFilesTest {
  static final CommandTree TREE = CommandTree.of(Gq.model());
  static final Path CHECKOUT = Path.of("").toAbsolutePath().getParent();
  @TempDir Path dir;

  private Path fakeSource() throws Exception {
    Path src = dir.resolve("src");
    Files.createDirectories(src.resolve("bin"));
    Files.copy(CHECKOUT.resolve("install.sh"), src.resolve("install.sh"));
    for (String f : List.of("gq", "gq-daemon", "gq-jdk.sh")) Files.copy(CHECKOUT.resolve("bin/" + f), src.resolve("bin/" + f));
    for (String f : List.of("client/target/gq", "actors/target/gq-daemon.jar", "actors/target/lib/stand-in.jar",
        "host/target/gq-shim", "mcp/target/gq-mcp.jar", "mcp/target/lib/stand-in.jar")) {
      Files.createDirectories(src.resolve(f).getParent());
      Files.writeString(src.resolve(f), "stand-in\n");
    }
    ShellFiles.write(src.resolve("cli/target/shell"), TREE);
    try (var docs = Files.walk(CHECKOUT.resolve("docs"))) {
      for (Path f : docs.filter(Files::isRegularFile).toList()) {
        Path to = src.resolve(CHECKOUT.relativize(f).toString());
        Files.createDirectories(to.getParent());
        Files.copy(f, to);
      }
    }
    Files.copy(CHECKOUT.resolve("README.md"), src.resolve("README.md"));
    return src;
  }

  @Test
  void installPutsCompletionsAndManualPagesUnderThePrefix() throws Exception {
    Path src = fakeSource();
    Path prefix = dir.resolve(".local"); // the default prefix, under HOME
    Path man1 = Files.createDirectories(prefix.resolve("share/man/man1"));
    Files.writeString(man1.resolve("gq-gone.1"), ".TH OLD 1\n");
    Files.writeString(man1.resolve("other.1"), ".TH OTHER 1\n");
    Map<String, String> env = new HashMap<>();
    env.put("HOME", dir.toString());
    env.put("GQ_DATA_DIR", dir.resolve("data").toString());
    env.put("GQ_RUNTIME_DIR", dir.resolve("run").toString());
    env.put("SHELL", "/bin/zsh");
    env.put("PREFIX", null);
    env.put("XDG_DATA_HOME", null);
    Proc p = Proc.run(src, env, "bash", "install.sh", "--no-build");
    assertEquals(0, p.code(), p.out() + p.err());

    Path share = prefix.toRealPath().resolve("share");
    assertEquals(BashCompletion.script(TREE), Files.readString(share.resolve("bash-completion/completions/gq")));
    assertEquals(ZshCompletion.script(TREE), Files.readString(share.resolve("zsh/site-functions/_gq")));
    assertEquals(FishCompletion.script(TREE), Files.readString(share.resolve("fish/vendor_completions.d/gq.fish")));
    for (Map.Entry<String, String> page : ManPages.pages(TREE).entrySet()) {
      assertEquals(page.getValue(), Files.readString(man1.resolve(page.getKey())), page.getKey());
    }
    assertFalse(Files.exists(man1.resolve("gq-gone.1")), "a page of a command that is gone");
    assertTrue(Files.exists(man1.resolve("other.1")), "another program's page stays");
    assertEquals(Files.readString(CHECKOUT.resolve("docs/assistant/SKILL.md")), Files.readString(share.resolve("gq/assistant/SKILL.md")),
        "the assistant's skill file");
    for (String f : List.of("guide.md", "reference.md", "troubleshooting.md", "README.md"))
      assertTrue(Files.isRegularFile(share.resolve("doc/gq/" + f)), "the pages point to " + f + ", installed beside them");
    // every link between the installed documents leads to a file that is installed too
    java.util.regex.Pattern link = java.util.regex.Pattern.compile("\\]\\(([^)#:]+\\.(?:md|json|svg))(?:#[^)]*)?\\)");
    try (var docs = Files.list(share.resolve("doc/gq"))) {
      for (Path doc : docs.filter(f -> f.toString().endsWith(".md")).toList()) {
        var m = link.matcher(Files.readString(doc));
        while (m.find()) assertTrue(Files.exists(doc.resolveSibling(m.group(1))), doc.getFileName() + " links to " + m.group(1));
      }
    }
    assertTrue(p.out().contains("fpath=(" + share + "/zsh/site-functions $fpath)"), p.out());
    assertTrue(Files.exists(prefix.resolve("lib/gq/mcp/gq-mcp.jar")) && Files.exists(prefix.resolve("lib/gq/mcp/stand-in.jar")),
        "gq mcp's jar and libraries are installed");
    found(env, prefix.toRealPath());
  }

  /** Where installed, man and fish find them by themselves (where they are installed). */
  private void found(Map<String, String> env, Path prefix) throws Exception {
    env.put("PATH", prefix.resolve("bin") + ":/usr/bin:/bin");
    if (Proc.installed("man")) {
      Proc man = Proc.run(dir, env, "man", "-w", "gq-daemon-status");
      assertEquals(prefix.resolve("share/man/man1/gq-daemon-status.1") + "\n", man.out(), man.err());
    }
    if (Proc.installed("fish")) {
      Proc fish = Proc.run(dir, env, "fish", "-c", "complete -C 'gq daemon st'");
      assertTrue(fish.out().contains("status\t"), fish.out() + fish.err());
    }
  }
}
