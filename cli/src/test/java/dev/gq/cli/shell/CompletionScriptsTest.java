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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The completion scripts, run by the shells themselves: each offers, for every command of the
 * model, every subcommand and option it has. zsh and fish are checked where they are installed.
 */
class CompletionScriptsTest {
  static final CommandTree TREE = CommandTree.of(Gq.model());
  @TempDir static Path dir;
  static Path bash;
  static Path zsh;
  static Path fish;

  @BeforeAll
  static void write() throws Exception {
    bash = Files.writeString(dir.resolve("gq.bash"), BashCompletion.script(TREE));
    zsh = Files.writeString(dir.resolve("_gq"), ZshCompletion.script(TREE));
    fish = Files.writeString(dir.resolve("gq.fish"), FishCompletion.script(TREE));
  }

  /** What bash offers for the words, the last being the one at the cursor. */
  static List<String> bashOffers(String... words) throws Exception {
    String driver = "source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gq;"
        + " printf '%s\\n' \"${COMPREPLY[@]}\"";
    List<String> cmd = new ArrayList<>(List.of("bash", "--norc", "-c", driver, bash.toString()));
    cmd.addAll(List.of(words));
    Proc p = Proc.run(dir, Map.of(), cmd.toArray(String[]::new));
    assertEquals(0, p.code(), p.err());
    assertEquals("", p.err());
    return p.lines();
  }

  static List<String> words(CommandTree c, String last) {
    List<String> w = new ArrayList<>(List.of("gq"));
    w.addAll(c.path());
    w.add(last);
    return w;
  }

  @Test
  void bashReadsTheScript() throws Exception {
    Proc p = Proc.run(dir, Map.of(), "bash", "-n", bash.toString());
    assertEquals(0, p.code(), p.err());
  }

  @Test
  void bashOffersEverySubcommandAndOptionOfEveryCommand() throws Exception {
    for (CommandTree c : TREE.all()) {
      List<String> options = bashOffers(words(c, "-").toArray(String[]::new));
      for (CommandTree.Option o : c.options()) {
        for (String n : o.names()) assertTrue(options.contains(n), c.qualifiedName() + " " + n + " in " + options);
      }
      if (c.children().isEmpty()) continue;
      List<String> subs = bashOffers(words(c, "").toArray(String[]::new));
      for (CommandTree child : c.children()) assertTrue(subs.containsAll(child.names()), c.qualifiedName() + ": " + subs);
    }
  }

  @Test
  void bashCompletesAliasesShortcutValuesAndFiles() throws Exception {
    Files.writeString(dir.resolve("train.sh"), "true\n");
    assertEquals(List.of("submit"), bashOffers("gq", "sub"));
    assertEquals(List.of("status", "stop", "start"), bashOffers("gq", "daemon", "st"));
    assertTrue(bashOffers("gq", "status", "--").contains("--state"), "ps's options under its alias");
    assertEquals(List.of("--no-wait"), bashOffers("gq", "daemon", "stop", "--no"), "a negatable option's negative form");
    assertEquals(List.of("RUNNING"), bashOffers("gq", "ps", "--state", "R"));
    assertEquals(List.of("--name"), bashOffers("gq", "-g", "1", "--na"), "the -g shortcut is run");
    assertEquals(List.of("train.sh"), bashOffers("gq", "submit", "tr"));
    assertEquals(List.of("bash", "zsh", "fish"), bashOffers("gq", "completion", ""));
    assertTrue(bashOffers("gq", "run", "-g", "1", "bas").contains("bash"), "programs after run");
  }

  /** A gq on PATH that answers 'daemon status' as running or not, lists jobs 12 and 7, and logs each call. */
  static Map<String, String> fakeGq(boolean running) throws Exception {
    Path bin = Files.createDirectories(dir.resolve(running ? "up" : "down"));
    Path gq = bin.resolve("gq");
    Files.writeString(gq, "#!/bin/sh\necho \"$*\" >> \"" + bin.resolve("calls") + "\"\n"
        + "case \"$*\" in\n  'daemon status') exit " + (running ? 0 : 1) + " ;;\n"
        + "  'ps --no-header -o id') printf '12\\n7\\n' ;;\n"
        + "  'ps -t WAITING,STARTING,RUNNING,PREEMPTING --no-header -o id') printf '12\\n' ;;\n"
        + "  'groups --json') printf '[ {\\n  \"group\" : \"sweep\",\\n  \"held\" : false\\n}, {\\n  \"group\" : \"evals\"\\n} ]\\n' ;;\n"
        + "  *) echo started >> \"" + bin.resolve("calls") + "\" ;;\nesac\n");
    gq.toFile().setExecutable(true);
    return Map.of("PATH", bin + ":" + System.getenv("PATH"));
  }

  static List<String> bashOffersWith(Map<String, String> env, String... words) throws Exception {
    String driver = "source \"$0\"; COMP_WORDS=(\"$@\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _gq;"
        + " printf '%s\\n' \"${COMPREPLY[@]}\"";
    List<String> cmd = new ArrayList<>(List.of("bash", "--norc", "-c", driver, bash.toString()));
    cmd.addAll(List.of(words));
    Proc p = Proc.run(dir, env, cmd.toArray(String[]::new));
    assertEquals(0, p.code(), p.err());
    return p.lines().stream().filter(l -> !l.isEmpty()).toList();
  }

  @Test
  void jobIdsAreCompletedFromARunningDaemonAndNoDaemonIsStartedForThem() throws Exception {
    assertEquals(List.of("12"), bashOffersWith(fakeGq(true), "gq", "show", "1"));
    assertEquals(List.of("12"), bashOffersWith(fakeGq(true), "gq", "cancel", ""), "only the jobs a cancel can stop");
    assertEquals(List.of(), bashOffersWith(fakeGq(false), "gq", "show", ""));
    assertEquals(List.of("daemon status"), Files.readAllLines(dir.resolve("down").resolve("calls")),
        "with no daemon, only its status is asked: nothing that would start one");
  }

  @Test
  void groupNamesAreCompletedWhereAGroupIsExpected() throws Exception {
    assertEquals(List.of("sweep"), bashOffersWith(fakeGq(true), "gq", "ps", "--group", "s"));
    assertEquals(List.of("sweep", "evals"), bashOffersWith(fakeGq(true), "gq", "wait", "--group", ""));
    assertEquals(List.of("evals"), bashOffersWith(fakeGq(true), "gq", "groups", "e"));
    assertEquals(List.of("sweep"), bashOffersWith(fakeGq(true), "gq", "-g", "1", "--group", "sw"));
  }

  @Test
  void zshReadsTheScriptAndDefinesAFunctionPerCommand() throws Exception {
    assumeTrue(Proc.installed("zsh"), "zsh is not installed: the zsh completion is not checked");
    Proc syntax = Proc.run(dir, Map.of(), "zsh", "-n", zsh.toString());
    assertEquals(0, syntax.code(), syntax.err());
    String load = "autoload -U compinit && compinit -u -d \"$1/zcompdump\"; source \"$0\";"
        + " print -l ${(k)functions[(I)_gq*]}; print \"comp:$_comps[gq]\"";
    Proc p = Proc.run(dir, Map.of("HOME", dir.toString()), "zsh", "-f", "-c", load, zsh.toString(), dir.toString());
    assertEquals(0, p.code(), p.err());
    for (CommandTree c : TREE.all()) {
      String fn = c.id().isEmpty() ? "_gq" : "_gq_" + c.id();
      assertTrue(p.lines().contains(fn), fn + " in " + p.out());
    }
    assertTrue(p.lines().contains("comp:_gq"), p.out());
    String script = Files.readString(zsh);
    for (CommandTree c : TREE.all()) {
      for (CommandTree.Option o : c.options()) {
        for (String n : o.names()) assertTrue(script.contains("'" + n) || script.contains("'*" + n), n);
      }
      for (CommandTree child : c.children()) for (String n : child.names()) assertTrue(script.contains("'" + n + ":"), n);
    }
  }

  /** What fish offers for the command line (completions without their descriptions). */
  static List<String> fishOffers(String line) throws Exception {
    Proc p = Proc.run(dir, Map.of("HOME", dir.toString()), "fish", "--no-config", "-c",
        "source $argv[1]; complete -C $argv[2]", fish.toString(), line);
    assertEquals(0, p.code(), p.err());
    return p.lines().stream().map(l -> l.split("\t")[0]).toList();
  }

  @Test
  void fishOffersEverySubcommandAndOptionOfEveryCommand() throws Exception {
    assumeTrue(Proc.installed("fish"), "fish is not installed: the fish completion is not checked");
    Proc syntax = Proc.run(dir, Map.of(), "fish", "--no-execute", fish.toString());
    assertEquals(0, syntax.code(), syntax.err());
    for (CommandTree c : TREE.all()) {
      String at = String.join(" ", words(c, ""));
      List<String> options = fishOffers(at + "-");
      for (CommandTree.Option o : c.options()) {
        for (String n : o.names()) assertTrue(options.contains(n), c.qualifiedName() + " " + n + " in " + options);
      }
      if (c.children().isEmpty()) continue;
      List<String> subs = fishOffers(at);
      for (CommandTree child : c.children()) assertTrue(subs.containsAll(child.names()), c.qualifiedName() + ": " + subs);
    }
    assertEquals(List.of("RUNNING"), fishOffers("gq ls --state R"));
    Proc jobs = Proc.run(dir, Map.of("HOME", dir.toString(), "PATH", fakeGq(true).get("PATH")), "fish", "--no-config", "-c",
        "source $argv[1]; complete -C $argv[2]", fish.toString(), "gq show ");
    assertEquals(java.util.Set.of("12", "7"), java.util.Set.copyOf(jobs.lines().stream().map(l -> l.split("\t")[0]).toList()));
    assertEquals(List.of("--name"), fishOffers("gq -g 1 --na"));
  }
}
