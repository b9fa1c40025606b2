package dev.gq.actors.arch;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The house's structural rules over every module's main code: arrows between packages and between
 * files point one way, core is the JDK's only and reads no clock or randomness, files stay short,
 * classes are imported rather than written with their package, and the architecture document names
 * classes that exist. Each failure lists one line per violation.
 */
class ArchitectureTest {
  static final int MAX_LINES = 260;

  /**
   * The tangles of files known and kept, and why: the test fails when one grows or changes, when
   * another appears, and when one is gone (then remove it from here).
   */
  /** The most lines the architecture map may have; topics go in notes beside it (docs/design/). */
  private static final int MAP_LINES = 300;

  private static final Map<Set<String>, String> KNOWN_TANGLES = Map.of(
      Set.of("core.ledger.Dependencies", "core.ledger.FailFast", "core.ledger.Ledger", "core.ledger.LedgerJobEvents"),
      "Ledger.apply hands job events to LedgerJobEvents, which builds the next Ledger; its helpers read the ledger's"
          + " nested records (KeyHolder, Failure, Ending), which snapshots store",
      Set.of("persistence.EnvJson", "persistence.JobDocuments"),
      "a Jackson serializer and the mapper it serves: the history's document mapper takes EnvJson as the mixin for a"
          + " spec's environment, and EnvJson writes a batch's shared environment once with that mapper's rules",
      Set.of("core.job.WaitReason", "core.job.WaitText"),
      "a sealed type and its one renderer: each wait reason's brief() and text() hand it to WaitText, which words"
          + " every kind in one switch");

  @Test
  void packagesFormNoCycle() {
    Cycles graph = new Cycles();
    Map<String, String> example = new TreeMap<>();
    for (JavaClass c : MainCode.classes()) {
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        JavaClass target = d.getTargetClass().getBaseComponentType();
        if (!target.getPackageName().startsWith("dev.gq.")) continue;
        graph.add(c.getPackageName(), target.getPackageName());
        example.putIfAbsent(c.getPackageName() + " " + target.getPackageName(), topLevel(c) + " uses " + topLevel(target));
      }
    }
    for (SourceUses.Use u : SourceUses.all()) {
      String from = packageOf(u.from());
      String to = packageOf(u.to());
      graph.add(from, to);
      example.putIfAbsent(from + " " + to, u.where() + " uses " + u.to());
    }
    List<String> violations = new ArrayList<>();
    cycles(graph, example, "package cycle: ", name -> name, violations);
    report("packages that depend on each other", violations);
  }

  @Test
  void filesFormNoCycle() {
    Cycles graph = new Cycles();
    Map<String, String> example = new TreeMap<>();
    for (JavaClass c : MainCode.classes()) {
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        JavaClass target = d.getTargetClass().getBaseComponentType();
        if (!target.getPackageName().startsWith("dev.gq.")) continue;
        graph.add(file(c), file(target));
        example.putIfAbsent(file(c) + " " + file(target), d.getSourceCodeLocation() + " uses " + target.getSimpleName());
      }
    }
    for (SourceUses.Use u : SourceUses.all()) {
      graph.add(u.from(), u.to());
      example.putIfAbsent(u.from() + " " + u.to(), "(" + u.where() + ") uses " + u.to().substring(u.to().lastIndexOf('.') + 1));
    }
    List<String> violations = new ArrayList<>();
    Set<Set<String>> seen = cycles(graph, example, "file cycle: ", ArchitectureTest::shortName, violations);
    for (Set<String> known : KNOWN_TANGLES.keySet()) {
      if (!seen.contains(known)) violations.add("file cycle listed as known is gone or changed: " + new TreeSet<>(known)
          + "; take it out of KNOWN_TANGLES");
    }
    report("files whose classes use each other", violations);
  }

  @Test
  void coreUsesOnlyTheJdk() {
    List<String> violations = new ArrayList<>();
    for (JavaClass c : MainCode.classes()) {
      if (!inCore(c)) continue;
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        JavaClass target = d.getTargetClass().getBaseComponentType();
        if (!target.isPrimitive() && !jdk(target.getPackageName()) && !target.getPackageName().startsWith("dev.gq.core")) {
          violations.add("core uses " + target.getName() + ": " + d.getDescription());
        }
      }
    }
    Pattern imported = Pattern.compile("^import (?:static )?([\\w.]+)(?:\\.\\*)?;", Pattern.MULTILINE);
    for (Path file : MainCode.sources(".java")) {
      if (!MainCode.shown(file).startsWith("core/")) continue;
      Matcher m = imported.matcher(MainCode.read(file));
      while (m.find()) {
        if (!jdk(m.group(1)) && !m.group(1).startsWith("dev.gq.core.")) violations.add(MainCode.shown(file) + " imports " + m.group(1));
      }
    }
    report("core classes that use more than the JDK", violations);
  }

  @Test
  void coreReadsNoClockAndNoRandomness() {
    List<String> violations = new ArrayList<>();
    for (JavaClass c : MainCode.classes()) {
      if (!inCore(c)) continue;
      for (JavaAccess<?> access : c.getAccessesFromSelf()) {
        String owner = access.getTargetOwner().getName();
        String name = access.getName();
        if (Chance.readsClockOrRandomness(owner, name, access.getTarget().getFullName())) {
          violations.add("core reads a clock or randomness: " + access.getDescription());
        }
      }
    }
    report("clock or randomness read in core (take the time or the random source as an argument)", violations);
  }

  @Test
  void mainFilesStayShort() {
    List<String> violations = new ArrayList<>();
    for (Path file : MainCode.sources(".java", ".c", ".h")) {
      long lines = MainCode.read(file).lines().count();
      if (lines > MAX_LINES) violations.add(MainCode.shown(file) + " has " + lines + " lines (at most " + MAX_LINES + ")");
    }
    report("main source files over " + MAX_LINES + " lines", violations);
  }

  @Test
  void codeImportsClassesInsteadOfQualifyingThem() {
    ClassLoader loader = ArchitectureTest.class.getClassLoader();
    List<String> violations = new ArrayList<>();
    for (Path file : MainCode.sources(".java")) {
      String source = MainCode.read(file);
      Clashes clashes = null;
      for (JavaText.Qualified q : JavaText.qualifiedNames(source)) {
        if (!exists(loader, q.name())) continue;
        if (clashes == null) clashes = new Clashes(source, loader);
        if (clashes.otherwiseKnown(q)) continue;
        boolean bare = q.pkg().equals("java.lang") || source.contains("package " + q.pkg() + ";");
        violations.add(MainCode.shown(file) + ":" + q.line() + ": " + q.name() + " written in full; write " + q.simple()
            + (bare ? "" : " and import it"));
      }
    }
    report("classes written with their package in code", violations);
  }

  @Test
  void theArchitectureDocumentNamesClassesThatExist() throws IOException {
    Path docs = MainCode.root().resolve("docs");
    List<Path> pages = new ArrayList<>(List.of(docs.resolve("architecture.md")));
    try (var notes = Files.list(docs.resolve("design"))) {
      notes.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<Path> javaFiles = MainCode.javaFilesAnywhere();
    Set<String> known = DocNames.known(MainCode.classes(), javaFiles);
    List<String> violations = new ArrayList<>();
    for (Path page : pages) {
      String name = docs.getParent().relativize(page).toString();
      for (DocNames.Mention m : DocNames.mentions(MainCode.read(page))) {
        if (!known.contains(m.name())) violations.add(name + ":" + m.line() + ": `" + m.name() + "` names no class in the code");
      }
    }
    report("class names in the architecture documents that the code does not have", violations);
  }

  @Test
  void theArchitectureMapIsShort() {
    long lines = MainCode.read(MainCode.root().resolve("docs/architecture.md")).lines().count();
    assertTrue(lines <= MAP_LINES, "docs/architecture.md has " + lines + " lines, more than " + MAP_LINES
        + ": keep it a map and put the topic in a note of docs/design/");
  }

  /**
   * Adds to {@code violations} one line for each tangle of {@code graph} not in {@link #KNOWN_TANGLES}:
   * {@code kind}, one cycle through it (names as {@code name} writes them) and an example of each of
   * its uses from {@code example}; returns every tangle found, as {@link #shortName} writes it.
   */
  private static Set<Set<String>> cycles(Cycles graph, Map<String, String> example, String kind,
      Function<String, String> name, List<String> violations) {
    Set<Set<String>> seen = new HashSet<>();
    for (Set<String> tangle : graph.tangles()) {
      Set<String> shown = tangle.stream().map(ArchitectureTest::shortName).collect(Collectors.toSet());
      seen.add(shown);
      if (KNOWN_TANGLES.containsKey(shown)) continue;
      List<String> cycle = graph.cycle(tangle);
      List<String> uses = new ArrayList<>();
      for (int i = 0; i + 1 < cycle.size(); i++) uses.add(example.get(cycle.get(i) + " " + cycle.get(i + 1)));
      violations.add(kind + String.join(" -> ", cycle.stream().map(name).toList()) + " (" + String.join("; ", uses) + ")"
          + more(tangle, cycle));
    }
    return seen;
  }

  static boolean exists(ClassLoader loader, String name) {
    try {
      Class.forName(name, false, loader);
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  private static boolean inCore(JavaClass c) {
    return c.getPackageName().equals("dev.gq.core") || c.getPackageName().startsWith("dev.gq.core.");
  }

  private static boolean jdk(String name) {
    return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.");
  }

  private static String packageOf(String file) {
    return file.substring(0, file.lastIndexOf('.'));
  }

  private static String topLevel(JavaClass c) {
    String name = c.getName();
    int dollar = name.indexOf('$');
    return dollar < 0 ? name : name.substring(0, dollar);
  }

  /** The source file of {@code c} (nested classes and a file's other top-level classes count as its file), as package.File. */
  private static String file(JavaClass c) {
    return c.getSource().flatMap(s -> s.getFileName()).map(f -> c.getPackageName() + "." + f.replaceFirst("\\.java$", ""))
        .orElse(topLevel(c));
  }

  private static String shortName(String className) {
    return className.startsWith("dev.gq.") ? className.substring("dev.gq.".length()) : className;
  }

  private static String more(Set<String> tangle, List<String> cycle) {
    if (tangle.size() <= cycle.size() - 1) return "";
    return " (the tangle holds " + tangle.size() + ": " + String.join(", ", tangle.stream().map(ArchitectureTest::shortName).toList()) + ")";
  }

  private static void report(String rule, List<String> violations) {
    if (!violations.isEmpty()) fail(violations.size() + " " + rule + ":\n" + String.join("\n", violations));
  }
}
