package dev.gq.protocol;

import java.nio.ByteBuffer;

/**
 * An {@code out} or {@code err} frame written straight to the UTF-8 bytes of its line, newline
 * included: the very bytes of {@link Frame#toJson()} and a newline, made in one pass over the text
 * without the JSON text in between (a listing of 100,000 jobs is about 100 MB of it). As
 * {@link Json#quote}: quotes, backslashes and control characters escaped, a lone half of a
 * surrogate pair written as a u-escape, every other character as it is. Pure.
 */
final class TextLines {
  private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
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

  /** As above, written into {@code room} when it is large enough, else into a new array. */
  static ByteBuffer line(String type, String text, byte[] room) {
    int n = text.length();
    int size = size(text) + type.length() + 16;
    byte[] b = room.length >= size ? room : new byte[size];
    int o = ascii(b, 0, "{\"t\":\"");
    o = ascii(b, o, type);
    o = ascii(b, o, "\",\"s\":\"");
    for (int i = 0; i < n; i++) {
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

  /** How many bytes {@code text} takes in the line, quoted and encoded. */
  private static int size(String text) {
    int size = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 128) size += PLAIN[c] ? 1 : c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f' ? 2 : 6;
      else if (c < 0x800) size += 2;
      else if (!Character.isSurrogate(c)) size += 3;
      else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        size += 4;
        i++;
      } else size += 6;
    }
    return size;
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
