package dev.gq.actors.arch;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Java source file's code as the rules read it: comments, string and character literals and text
 * blocks blanked out (lines kept, so line numbers stay true), and the qualified names written in it.
 */
final class JavaText {
  private JavaText() {}

  /** A chain of lower-case words and a capitalized one after them: {@code java.util.List}, {@code dev.gq.core.X}. */
  private static final Pattern QUALIFIED =
      Pattern.compile("(?<![\\w.$])((?:[a-z_][a-z0-9_]*\\.)+)([A-Z][A-Za-z0-9_$]*)");

  /** A name written with its package in code: at {@code line}, {@code pkg.simple}. */
  record Qualified(int line, String pkg, String simple) {
    String name() {
      return pkg + "." + simple;
    }
  }

  /** {@code source} with its comments and literals replaced by spaces; line breaks kept. */
  static String code(String source) {
    StringBuilder out = new StringBuilder(source.length());
    int i = 0;
    int n = source.length();
    while (i < n) {
      char c = source.charAt(i);
      if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
        while (i < n && source.charAt(i) != '\n') i = blank(out, source, i);
      } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
        int end = source.indexOf("*/", i + 2);
        int stop = end < 0 ? n : end + 2;
        while (i < stop) i = blank(out, source, i);
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        while (end > 0 && source.charAt(end - 1) == '\\') end = source.indexOf("\"\"\"", end + 1);
        int stop = end < 0 ? n : end + 3;
        while (i < stop) i = blank(out, source, i);
      } else if (c == '"' || c == '\'') {
        out.append(' ');
        i++;
        while (i < n && source.charAt(i) != c && source.charAt(i) != '\n') {
          if (source.charAt(i) == '\\' && i + 1 < n) i = blank(out, source, i);
          i = blank(out, source, i);
        }
        if (i < n && source.charAt(i) == c) i = blank(out, source, i);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** The qualified names in the code of {@code source}, package and import lines left out. */
  static List<Qualified> qualifiedNames(String source) {
    List<Qualified> found = new ArrayList<>();
    String[] lines = code(source).split("\n", -1);
    for (int at = 0; at < lines.length; at++) {
      String line = lines[at].strip();
      if (line.startsWith("package ") || line.startsWith("import ")) continue;
      Matcher m = QUALIFIED.matcher(lines[at]);
      while (m.find()) {
        String pkg = m.group(1).substring(0, m.group(1).length() - 1);
        found.add(new Qualified(at + 1, pkg, m.group(2)));
      }
    }
    return found;
  }

  private static int blank(StringBuilder out, String source, int i) {
    out.append(source.charAt(i) == '\n' ? '\n' : ' ');
    return i + 1;
  }
}
