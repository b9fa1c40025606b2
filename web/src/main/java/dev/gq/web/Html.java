package dev.gq.web;

import dev.gq.core.job.PrintableText;

/**
 * Text others wrote, made safe for a page: every control and bidirectional character shown escaped
 * as the terminal commands show it ({@link PrintableText#escape}), then {@code & < > " '} written as
 * character references, so that neither an element nor an attribute can be opened or closed by a
 * job's name, command, log or another user's line. Every string the pages show passes through here.
 */
final class Html {
  private Html() {}

  /** {@code s} as text of an element or a quoted attribute's value; null as the empty string. */
  static String text(String s) {
    if (s == null) return "";
    String visible = PrintableText.escape(s);
    StringBuilder sb = null;
    for (int i = 0; i < visible.length(); i++) {
      String ref = switch (visible.charAt(i)) {
        case '&' -> "&amp;";
        case '<' -> "&lt;";
        case '>' -> "&gt;";
        case '"' -> "&quot;";
        case '\'' -> "&#39;";
        default -> null;
      };
      if (ref != null && sb == null) sb = new StringBuilder(visible.length() + 16).append(visible, 0, i);
      if (sb != null) {
        if (ref != null) sb.append(ref);
        else sb.append(visible.charAt(i));
      }
    }
    return sb == null ? visible : sb.toString();
  }

  /** Lines of a log as text of a {@code pre}: each line escaped, the newlines kept. */
  static String lines(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    int from = 0;
    for (int nl = s.indexOf('\n'); nl >= 0; from = nl + 1, nl = s.indexOf('\n', from))
      sb.append(text(s.substring(from, nl))).append('\n');
    return sb.append(text(s.substring(from))).toString();
  }
}
