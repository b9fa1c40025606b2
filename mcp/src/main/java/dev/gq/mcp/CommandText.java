package dev.gq.mcp;

import java.util.List;

/** A command line as a user would type it: words with spaces or shell characters single-quoted. */
final class CommandText {
  private CommandText() {}

  static String of(List<String> argv) {
    StringBuilder sb = new StringBuilder("gq");
    for (String w : argv) sb.append(' ').append(quoted(w));
    return sb.toString();
  }

  static String quoted(String w) {
    if (!w.isEmpty() && w.chars().allMatch(c -> Character.isLetterOrDigit(c) || "-_=./,:@%+".indexOf(c) >= 0)) return w;
    return "'" + w.replace("'", "'\\''") + "'";
  }
}
