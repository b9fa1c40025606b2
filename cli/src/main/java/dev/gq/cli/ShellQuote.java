package dev.gq.cli;

import dev.gq.core.job.PrintableText;
import java.util.List;

/**
 * Writes an argv the way a user would type it in bash, for display only (jobs are never run
 * through a shell): plain words as they are, others in single quotes, and words with control
 * characters, line separators or bidirectional overrides ({@link PrintableText}) in {@code $'...'}
 * so a table row stays on one line and shows what bash would pass. Pure.
 */
final class ShellQuote {
  private ShellQuote() {}

  static String join(List<String> argv) {
    StringBuilder sb = new StringBuilder();
    for (String arg : argv) {
      if (!sb.isEmpty()) sb.append(' ');
      sb.append(quote(arg));
    }
    return sb.toString();
  }

  static String quote(String arg) {
    if (arg.isEmpty()) return "''";
    if (plain(arg)) return arg;
    if (PrintableText.hasHidden(arg)) return ansiC(arg);
    return "'" + arg.replace("'", "'\"'\"'") + "'";
  }

  /** The characters a plain word has: ASCII letters and digits, and {@code _@%+=:,./-}. */
  private static final boolean[] PLAIN = new boolean[128];

  static {
    for (char c = 0; c < 128; c++) PLAIN[c] = Character.isLetterOrDigit(c) || "_@%+=:,./-".indexOf(c) >= 0;
  }

  private static boolean plain(String arg) {
    for (int i = 0; i < arg.length(); i++) {
      char c = arg.charAt(i);
      if (c >= 128 || !PLAIN[c]) return false;
    }
    return true;
  }

  private static String ansiC(String arg) {
    StringBuilder sb = new StringBuilder("$'");
    for (int i = 0; i < arg.length(); i++) {
      char c = arg.charAt(i);
      switch (c) {
        case '\n' -> sb.append("\\n");
        case '\t' -> sb.append("\\t");
        case '\r' -> sb.append("\\r");
        case '\\' -> sb.append("\\\\");
        case '\'' -> sb.append("\\'");
        default -> sb.append(!PrintableText.hidden(c) ? String.valueOf(c)
            : c <= 127 ? String.format("\\x%02x", (int) c) : String.format("\\u%04x", (int) c));
      }
    }
    return sb.append('\'').toString();
  }
}
