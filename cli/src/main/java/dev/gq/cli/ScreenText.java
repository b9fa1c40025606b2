package dev.gq.cli;

import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * The text of gq's full-screen view ({@code gq top}): its styles and clock, and lines padded and cut
 * by display width (a wide character counts two), never wider than asked. Pure.
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

  /** At most {@code width} columns, cut by display width (wide characters count two). */
  static AttributedString fit(AttributedString s, int width) {
    return s.columnLength() <= width ? s : s.columnSubSequence(0, width);
  }

  static String pad(String s, int width) {
    int w = new AttributedString(s).columnLength();
    return w >= width ? s : s + " ".repeat(width - w);
  }

  static String padLeft(String s, int width) {
    int w = new AttributedString(s).columnLength();
    return w >= width ? s : " ".repeat(width - w) + s;
  }

  /** {@code s} cut to {@code width} columns, ending in "…" when cut. */
  static String cut(String s, int width) {
    AttributedString a = new AttributedString(s);
    if (a.columnLength() <= width) return s;
    return a.columnSubSequence(0, Math.max(0, width - 1)).toString() + "…";
  }
}
