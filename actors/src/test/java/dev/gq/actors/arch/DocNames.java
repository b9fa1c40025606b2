package dev.gq.actors.arch;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The class names a document mentions in backticks ({@code `JobRunner`}, {@code `Scheduler.Report`},
 * {@code `Decider.decide`}, {@code `core/schedule/Decider.java`}) and the names the code has: every
 * main class, simple and as {@code Outer.Inner}, every class the main classes use (the JDK's, Pekko's)
 * and every Java file of the checkout (tests, benchmarks).
 */
final class DocNames {
  private DocNames() {}

  /**
   * A mention: an {@code Outer.Inner} chain, optionally a member after it (a method, a field, a
   * constant in capitals: {@code Policy.NONE}) and arguments.
   */
  private static final Pattern TYPE = Pattern.compile(
      "([A-Z][A-Za-z0-9]*(?:\\.[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)*)(?:[.#](?:[a-z_]\\w*|[A-Z][A-Z0-9_]*))?(?:\\(.*\\))?");
  private static final Pattern FILE = Pattern.compile("(?:[\\w./-]*/)?([A-Z][A-Za-z0-9]*)\\.java");
  private static final Pattern SPAN = Pattern.compile("`([^`\\n]+)`");

  /** A class name at {@code line} of the document. */
  record Mention(int line, String name) {}

  /** The class names {@code markdown} mentions in inline code spans, fenced blocks left out. */
  static List<Mention> mentions(String markdown) {
    List<Mention> found = new ArrayList<>();
    String[] lines = markdown.split("\n", -1);
    boolean fenced = false;
    for (int at = 0; at < lines.length; at++) {
      if (lines[at].strip().startsWith("```")) {
        fenced = !fenced;
        continue;
      }
      if (fenced) continue;
      Matcher span = SPAN.matcher(lines[at]);
      while (span.find()) {
        String text = span.group(1).strip();
        Matcher file = FILE.matcher(text);
        Matcher type = TYPE.matcher(text);
        if (file.matches()) {
          found.add(new Mention(at + 1, file.group(1)));
        } else if (type.matches() && type.group(1).chars().anyMatch(Character::isLowerCase)) {
          found.add(new Mention(at + 1, type.group(1)));
        }
      }
    }
    return found;
  }

  /** Every name the code answers to. */
  static Set<String> known(Iterable<JavaClass> classes, List<Path> javaFiles) {
    Set<String> names = new TreeSet<>();
    for (JavaClass c : classes) {
      addChains(names, c.getName());
      for (Dependency d : c.getDirectDependenciesFromSelf()) addChains(names, d.getTargetClass().getBaseComponentType().getName());
    }
    for (Path file : javaFiles) names.add(file.getFileName().toString().replaceFirst("\\.java$", ""));
    return names;
  }

  /** For {@code a.b.Outer$Inner$Deep}: Outer, Outer.Inner, Outer.Inner.Deep, Inner, Inner.Deep, Deep. */
  private static void addChains(Set<String> names, String binaryName) {
    String[] parts = binaryName.substring(binaryName.lastIndexOf('.') + 1).split("\\$");
    for (int from = 0; from < parts.length; from++) {
      StringBuilder chain = new StringBuilder();
      for (int to = from; to < parts.length; to++) {
        if (parts[to].isEmpty() || Character.isDigit(parts[to].charAt(0))) break;
        chain.append(chain.isEmpty() ? "" : ".").append(parts[to]);
        names.add(chain.toString());
      }
    }
  }
}
