package dev.gq.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a terminal in raw mode sends for the keys {@code gq top} knows: a printable character,
 * Enter, Backspace, Ctrl-C, Esc alone, and the arrows, Page Up/Down, Home and End in both the
 * {@code ESC [} and {@code ESC O} forms. Any other escape sequence (a function key) is dropped whole.
 */
final class TopKeys {
  enum Kind { CHAR, UP, DOWN, PAGE_UP, PAGE_DOWN, HOME, END, ENTER, ESC, BACKSPACE, INTERRUPT }

  /** One key; {@code ch} is the character of a {@link Kind#CHAR}, else 0. */
  record Key(Kind kind, int ch) {
    static Key of(Kind k) {
      return new Key(k, 0);
    }

    static Key ch(int c) {
      return new Key(Kind.CHAR, c);
    }
  }

  private TopKeys() {}

  static List<Key> parse(String text) {
    List<Key> keys = new ArrayList<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == 0x1b) {
        if (i >= n || (text.charAt(i) != '[' && text.charAt(i) != 'O')) {
          keys.add(Key.of(Kind.ESC));
          continue;
        }
        // CSI or SS3: parameters, then one final character from @ to ~
        int start = ++i;
        while (i < n && (text.charAt(i) < 0x40 || text.charAt(i) > 0x7e)) i++;
        if (i >= n) break;
        String params = text.substring(start, i);
        char fin = text.charAt(i++);
        Kind k = switch (fin) {
          case 'A' -> Kind.UP;
          case 'B' -> Kind.DOWN;
          case 'H' -> Kind.HOME;
          case 'F' -> Kind.END;
          case '~' -> switch (params) {
            case "1", "7" -> Kind.HOME;
            case "4", "8" -> Kind.END;
            case "5" -> Kind.PAGE_UP;
            case "6" -> Kind.PAGE_DOWN;
            default -> null;
          };
          default -> null;
        };
        if (k != null) keys.add(Key.of(k));
      } else if (c == '\r' || c == '\n') keys.add(Key.of(Kind.ENTER));
      else if (c == 0x7f || c == 0x08) keys.add(Key.of(Kind.BACKSPACE));
      else if (c == 0x03 || c == 0x04) keys.add(Key.of(Kind.INTERRUPT));
      else if (c >= 0x20) keys.add(Key.ch(c));
    }
    return keys;
  }
}
