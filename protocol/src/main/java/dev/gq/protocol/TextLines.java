package dev.gq.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An {@code out} or {@code err} frame written straight to the UTF-8 bytes of its line, newline
 * included: the very bytes of {@link Frame#toJson()} and a newline, made in one pass over the text
 * without the JSON text in between (a listing of 100,000 jobs is about 100 MB of it). As
 * {@link Json#quote}: quotes, backslashes and control characters escaped, a lone half of a
 * surrogate pair written as a u-escape, every other character as it is. Pure.
 */
final class TextLines {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  /** The ASCII characters written as they are. */
  private static final boolean[] PLAIN = new boolean[128];

  static {
    for (int c = 0x20; c < 128; c++) PLAIN[c] = c != '"' && c != '\\';
  }

  private TextLines() {}

  /** The line of the frame of {@code type} ("out" or "err") carrying {@code text}. */
  static ByteBuffer line(String type, String text) {
    return line(type, text, new byte[0]);
  }

  /**
   * As above, written into {@code room} when it is large enough, else into a new array (grown as
   * the text asks: one pass over it).
   */
  static ByteBuffer line(String type, String text, byte[] room) {
    int n = text.length();
    byte[] b = room.length >= n + 64 ? room : new byte[n + (n >> 3) + 64];
    int o = ascii(b, 0, "{\"t\":\"");
    o = ascii(b, o, type);
    o = ascii(b, o, "\",\"s\":\"");
    // at most 6 bytes a character (a u-escape) and the 4 of the end fit below the limit
    int limit = b.length - 12;
    for (int i = 0; i < n; i++) {
      if (o > limit) {
        b = Arrays.copyOf(b, b.length + Math.max(b.length >> 1, 6 * (n - i) / 4 + 64));
        limit = b.length - 12;
      }
      char c = text.charAt(i);
      if (c < 128) {
        if (PLAIN[c]) b[o++] = (byte) c;
        else o = escaped(b, o, c);
      } else if (c < 0x800) {
        b[o++] = (byte) (0xc0 | c >> 6);
        b[o++] = (byte) (0x80 | c & 0x3f);
      } else if (!Character.isSurrogate(c)) {
        o = three(b, o, c);
      } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, text.charAt(++i));
        b[o++] = (byte) (0xf0 | cp >> 18);
        b[o++] = (byte) (0x80 | cp >> 12 & 0x3f);
        b[o++] = (byte) (0x80 | cp >> 6 & 0x3f);
        b[o++] = (byte) (0x80 | cp & 0x3f);
      } else {
        o = unicode(b, o, c);
      }
    }
    o = ascii(b, o, "\"}\n");
    return ByteBuffer.wrap(b, 0, o);
  }

  private static int three(byte[] b, int o, char c) {
    b[o++] = (byte) (0xe0 | c >> 12);
    b[o++] = (byte) (0x80 | c >> 6 & 0x3f);
    b[o++] = (byte) (0x80 | c & 0x3f);
    return o;
  }

  private static int escaped(byte[] b, int o, char c) {
    char s = switch (c) {
      case '"' -> '"';
      case '\\' -> '\\';
      case '\n' -> 'n';
      case '\r' -> 'r';
      case '\t' -> 't';
      case '\b' -> 'b';
      case '\f' -> 'f';
      default -> 0;
    };
    if (s == 0) return unicode(b, o, c);
    b[o++] = '\\';
    b[o++] = (byte) s;
    return o;
  }

  private static int unicode(byte[] b, int o, char c) {
    b[o++] = '\\';
    b[o++] = 'u';
    b[o++] = HEX[c >> 12 & 15];
    b[o++] = HEX[c >> 8 & 15];
    b[o++] = HEX[c >> 4 & 15];
    b[o++] = HEX[c & 15];
    return o;
  }

  private static int ascii(byte[] b, int o, String s) {
    for (int i = 0; i < s.length(); i++) b[o++] = (byte) s.charAt(i);
    return o;
  }
}
