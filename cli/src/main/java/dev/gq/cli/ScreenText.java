package dev.gq.cli;

import dev.gq.core.job.PrintableText;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The text of gq's full-screen view ({@code gq top}): its styles and clock, and lines padded and cut
 * by display width (a wide character counts two), never wider than asked, with every character
 * {@link PrintableText} keeps off the terminal escaped, in each cell and again in each whole line
 * (text other users, processes and shared files wrote is on this screen). Pure.
 */
final class ScreenText {
  static final AttributedStyle TITLE = AttributedStyle.DEFAULT.inverse();
  static final AttributedStyle HEAD = AttributedStyle.BOLD;
  static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();
  static final AttributedStyle SELECTED = AttributedStyle.DEFAULT.inverse();
  static final AttributedStyle ASK = AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW);
  /** The time of day on a screen: 12:30:01. */
  static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

  private ScreenText() {}

  static AttributedString plain(String s) {
    return new AttributedString(s);
  }

  static AttributedString bar(String text, int width, AttributedStyle style) {
    return new AttributedString(pad(text, width), style);
  }

  /**
   * The line as the screen shows it: each character {@link PrintableText} keeps off the terminal
   * escaped in its style, whatever part of the screen put it there, then at most {@code width}
   * columns, cut by display width (wide characters count two).
   */
  static AttributedString fit(AttributedString s, int width) {
    AttributedString shown = escaped(s);
    return columns(shown) <= width ? shown : firstColumns(shown, width);
  }

  /** The first {@code width} columns of {@code a}: its first {@code width} characters when it is printable ASCII. */
  private static AttributedString firstColumns(AttributedString a, int width) {
    return printableAscii(a) ? a.subSequence(0, Math.max(0, Math.min(width, a.length()))) : a.columnSubSequence(0, width);
  }

  /**
   * The columns {@code s} takes on a terminal: its length when every character is printable ASCII
   * (one column each, as the terminal library counts them too, without its grapheme walk, which a
   * screen of a long queue paid for at every line), else the terminal library's count.
   */
  static int columns(CharSequence s) {
    if (printableAscii(s)) return s.length();
    return (s instanceof AttributedString a ? a : new AttributedString(s)).columnLength();
  }

  static boolean printableAscii(CharSequence s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e) return false;
    }
    return true;
  }

  private static AttributedString escaped(AttributedString s) {
    if (!PrintableText.hasHidden(s.toString())) return s;
    AttributedStringBuilder b = new AttributedStringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.styled(s.styleAt(i), PrintableText.hidden(c) ? PrintableText.escape(String.valueOf(c)) : String.valueOf(c));
    }
    return b.toAttributedString();
  }

  /** A cell of {@code s} escaped, then padded to {@code width} columns. */
  static String pad(String s, int width) {
    String e = PrintableText.escape(s);
    int w = columns(e);
    return w >= width ? e : e + " ".repeat(width - w);
  }

  static String padLeft(String s, int width) {
    String e = PrintableText.escape(s);
    int w = columns(e);
    return w >= width ? e : " ".repeat(width - w) + e;
  }

  /** {@code s} escaped and cut to {@code width} columns, ending in "…" when cut. */
  static String cut(String s, int width) {
    String e = PrintableText.escape(s);
    if (columns(e) <= width) return e;
    return firstColumns(new AttributedString(e), Math.max(0, width - 1)).toString() + "…";
  }

  /**
   * {@code s} escaped and cut to {@code width} columns as {@link #cut} does, but never inside a
   * number: a number that does not fit whole goes, with all after it ("exit 1…" would read as exit 1).
   */
  static String cutWords(String s, int width) {
    String e = PrintableText.escape(s);
    String c = cut(s, width);
    if (c.equals(e) || !c.endsWith("…")) return c;
    String kept = c.substring(0, c.length() - 1);
    if (kept.length() < e.length() && Character.isDigit(e.charAt(kept.length()))) {
      int end = kept.length();
      while (end > 0 && (Character.isDigit(kept.charAt(end - 1)) || kept.charAt(end - 1) == '.')) end--;
      kept = kept.substring(0, end);
    }
    return kept + "…";
  }
}
