package dev.gq.core.job;

/**
 * The characters that can hide or rearrange what a terminal shows: C0 and C1 controls (U+0000 to
 * U+001F, U+007F to U+009F), the line and paragraph separators U+2028 and U+2029, and the
 * bidirectional embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069). The labels
 * of a job (name, group, key) may not contain them ({@link #problem}), and text from users that gq
 * prints in tables shows them escaped ({@link #escape}), so that no row can spoof another. Pure.
 */
public final class PrintableText {
  private PrintableText() {}

  /** Whether {@code c} is one of the characters this class keeps off the terminal. */
  public static boolean hidden(char c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029'
        || (c >= '\u202a' && c <= '\u202e') || (c >= '\u2066' && c <= '\u2069');
  }

  /** Whether {@code s} has any such character. */
  public static boolean hasHidden(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      // printable ASCII, most of any text, is let through at once
      if ((c < 0x20 || c >= 0x7f) && hidden(c)) return true;
    }
    return false;
  }

  /**
   * Why {@code s} cannot be a label, completing "the name ...": e.g. "must not contain
   * bidirectional formatting characters (U+202E at character 4)"; null when it has none.
   */
  public static String problem(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (hidden(c)) return "must not contain " + kind(c) + " (" + codePoint(c) + " at character " + (i + 1) + ")";
    }
    return null;
  }

  private static String kind(char c) {
    if (c == '\u2028' || c == '\u2029') return "line or paragraph separators";
    if (c >= '\u202a') return "bidirectional formatting characters";
    return "control characters";
  }

  /**
   * {@code s} with each such character written visibly: {@code \n}, {@code \r}, {@code \t},
   * {@code \x1b} for the other C0 controls and DEL, and a u-escape with four hex digits (as in
   * Java) for the rest. Other text, backslashes included, is kept as it is.
   */
  public static String escape(String s) {
    if (!hasHidden(s)) return s;
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!hidden(c)) sb.append(c);
      else if (c == '\n') sb.append("\\n");
      else if (c == '\r') sb.append("\\r");
      else if (c == '\t') sb.append("\\t");
      else if (c <= 0x7f) sb.append(String.format("\\x%02x", (int) c));
      else sb.append(String.format("\\u%04x", (int) c));
    }
    return sb.toString();
  }

  /**
   * Text of several lines with each line {@link #escape escaped} and the newlines between them
   * kept: what a command that prints lines written by others shows.
   */
  public static String escapeLines(String text) {
    if (!hasHidden(text)) return text;
    StringBuilder sb = new StringBuilder(text.length() + 16);
    int from = 0;
    for (int nl = text.indexOf('\n'); nl >= 0; from = nl + 1, nl = text.indexOf('\n', from))
      sb.append(escape(text.substring(from, nl))).append('\n');
    return sb.append(escape(text.substring(from))).toString();
  }

  private static String codePoint(char c) {
    return String.format("U+%04X", (int) c);
  }
}
