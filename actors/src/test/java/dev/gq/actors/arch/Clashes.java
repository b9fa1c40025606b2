package dev.gq.actors.arch;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a class may keep its package in code: only where its simple name already means another
 * class in the file, so that an import would clash. That is, the file imports another class of that
 * name, declares a type of that name, its own package has a class of that name, or {@code java.lang}
 * does (both are visible without an import).
 */
final class Clashes {
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?([\\w.]+)\\.([A-Z]\\w*);", Pattern.MULTILINE);
  private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);

  private final Map<String, Set<String>> imports = new HashMap<>();
  private final Set<String> declared = new HashSet<>();
  private final String pkg;
  private final ClassLoader loader;

  Clashes(String source, ClassLoader loader) {
    this.loader = loader;
    Matcher m = IMPORT.matcher(source);
    while (m.find()) imports.computeIfAbsent(m.group(2), k -> new HashSet<>()).add(m.group(1) + "." + m.group(2));
    Matcher d = DECLARED.matcher(JavaText.code(source));
    while (d.find()) declared.add(d.group(1));
    Matcher p = PACKAGE.matcher(source);
    this.pkg = p.find() ? p.group(1) : "";
  }

  /** Whether {@code q}'s simple name means another class in this file already. */
  boolean otherwiseKnown(JavaText.Qualified q) {
    String simple = q.simple();
    for (String imported : imports.getOrDefault(simple, Set.of())) if (!imported.equals(q.name())) return true;
    if (declared.contains(simple)) return true;
    if (!q.pkg().equals(pkg) && ArchitectureTest.exists(loader, pkg + "." + simple)) return true;
    return !q.pkg().equals("java.lang") && ArchitectureTest.exists(loader, "java.lang." + simple);
  }
}
