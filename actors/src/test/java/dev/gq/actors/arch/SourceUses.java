package dev.gq.actors.arch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each main Java file uses as its source says: the gq classes it imports (static imports too)
 * and the classes of its own package it names in code. It sees what the compiled classes cannot: a
 * constant that the compiler copied into the code that reads it. Files are named package.File.
 */
final class SourceUses {
  private SourceUses() {}

  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(dev\\.gq\\.[\\w.]+?)\\.([A-Z]\\w*)[\\w.]*;",
      Pattern.MULTILINE);

  /** One use: file {@code from} uses file {@code to}, at {@code where} (File.java:LINE). */
  record Use(String from, String to, String where) {}

  static List<Use> all() {
    Map<Path, String> packages = new HashMap<>();
    Map<String, Set<String>> filesOf = new HashMap<>();
    for (Path file : MainCode.sources(".java")) {
      Matcher m = PACKAGE.matcher(MainCode.read(file));
      String pkg = m.find() ? m.group(1) : "";
      packages.put(file, pkg);
      filesOf.computeIfAbsent(pkg, k -> new HashSet<>()).add(base(file));
    }
    List<Use> uses = new ArrayList<>();
    for (Map.Entry<Path, String> e : packages.entrySet()) {
      Path file = e.getKey();
      String pkg = e.getValue();
      String from = pkg + "." + base(file);
      String source = MainCode.read(file);
      Matcher imported = IMPORT.matcher(source);
      while (imported.find()) {
        if (filesOf.getOrDefault(imported.group(1), Set.of()).contains(imported.group(2))) {
          uses.add(new Use(from, imported.group(1) + "." + imported.group(2), where(file, source, imported.start())));
        }
      }
      String[] lines = JavaText.code(source).split("\n", -1);
      for (String other : filesOf.get(pkg)) {
        if (other.equals(base(file))) continue;
        Pattern word = Pattern.compile("(?<![\\w.$])" + other + "(?![\\w$])");
        for (int at = 0; at < lines.length; at++) {
          String line = lines[at].strip();
          if (line.startsWith("package ") || line.startsWith("import ") || !word.matcher(lines[at]).find()) continue;
          uses.add(new Use(from, pkg + "." + other, file.getFileName() + ":" + (at + 1)));
          break;
        }
      }
    }
    return uses;
  }

  private static String base(Path file) {
    return file.getFileName().toString().replaceFirst("\\.java$", "");
  }

  private static String where(Path file, String source, int offset) {
    return file.getFileName() + ":" + (source.substring(0, offset).split("\n", -1).length);
  }
}
