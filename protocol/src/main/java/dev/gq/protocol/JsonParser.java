package dev.gq.protocol;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict recursive-descent parser for one JSON document; used through {@link Json#parse} and
 * {@link Json#parseStrict}. It refuses trailing text, duplicate keys, invalid escapes and deep
 * nesting; an integer beyond a {@code long} is a {@link BigInteger}, never a wrapped or rounded
 * number. With {@code surrogatesChecked}, a string holding half of a surrogate pair is refused too.
 */
final class JsonParser {
  private final String text;
  private final boolean surrogatesChecked;
  private int pos;
  private int depth;

  JsonParser(String text, boolean surrogatesChecked) {
    this.text = text;
    this.surrogatesChecked = surrogatesChecked;
  }

  Object document() throws ProtocolException {
    skipSpace();
    Object v = value();
    skipSpace();
    if (pos < text.length()) throw error("unexpected text after the JSON value");
    return v;
  }

  private Object value() throws ProtocolException {
    if (pos >= text.length()) throw error("unexpected end of input");
    char c = text.charAt(pos);
    switch (c) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': return literal("true", Boolean.TRUE);
      case 'f': return literal("false", Boolean.FALSE);
      case 'n': return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        throw error(c < 0x20 ? "unexpected control character" : "unexpected character '" + c + "'");
    }
  }

  private Map<String, Object> object() throws ProtocolException {
    enter();
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek() == '}') {
      pos++;
      depth--;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') throw error("expected a string key");
      int keyAt = pos;
      String key = string();
      skipSpace();
      expect(':');
      skipSpace();
      if (map.containsKey(key)) throw errorAt(keyAt, "duplicate key '" + key + "'");
      map.put(key, value());
      skipSpace();
      if (endOf('}')) return map;
    }
  }

  private List<Object> array() throws ProtocolException {
    enter();
    List<Object> list = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek() == ']') {
      pos++;
      depth--;
      return list;
    }
    while (true) {
      skipSpace();
      list.add(value());
      skipSpace();
      if (endOf(']')) return list;
    }
  }

  /** After a member: true at the closing bracket, false after a comma. */
  private boolean endOf(char close) throws ProtocolException {
    char c = peek();
    if (c == close) {
      pos++;
      depth--;
      return true;
    }
    if (c != ',') throw error("expected ',' or '" + close + "'");
    pos++;
    return false;
  }

  private void enter() throws ProtocolException {
    if (++depth > Protocol.MAX_DEPTH) {
      throw error("nested deeper than " + Protocol.MAX_DEPTH + " levels");
    }
  }

  /** A string token; it is scanned first so that big strings are copied once, not regrown. */
  private String string() throws ProtocolException {
    int start = ++pos;
    int end = start;
    boolean escaped = false;
    while (true) {
      if (end >= text.length()) throw errorAt(end, "unterminated string");
      char c = text.charAt(end);
      if (c == '"') break;
      if (c < 0x20) throw errorAt(end, "control character in a string must be escaped");
      if (c == '\\') escaped = true;
      end += c == '\\' ? 2 : 1;
    }
    if (!escaped) {
      pos = end + 1;
      return checked(text.substring(start, end), start);
    }
    StringBuilder sb = new StringBuilder(end - start);
    while (pos < end) {
      char c = text.charAt(pos);
      if (c == '\\') {
        escape(sb);
      } else {
        sb.append(c);
        pos++;
      }
    }
    pos = end + 1;
    return checked(sb.toString(), start);
  }

  /** {@code s} itself, unless surrogates are checked and it holds half of a pair. */
  private String checked(String s, int at) throws ProtocolException {
    if (!surrogatesChecked) return s;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) i++;
      else if (Character.isSurrogate(c))
        throw errorAt(at, "the string holds a lone surrogate (\\u" + Integer.toHexString(c) + "), which is no character");
    }
    return s;
  }

  private void escape(StringBuilder sb) throws ProtocolException {
    pos++;
    if (pos >= text.length()) throw error("unterminated string");
    char c = text.charAt(pos++);
    switch (c) {
      case '"', '\\', '/' -> sb.append(c);
      case 'n' -> sb.append('\n');
      case 'r' -> sb.append('\r');
      case 't' -> sb.append('\t');
      case 'b' -> sb.append('\b');
      case 'f' -> sb.append('\f');
      case 'u' -> sb.append(unicode());
      default -> throw errorAt(pos - 2, "invalid escape '\\" + c + "'");
    }
  }

  private char unicode() throws ProtocolException {
    if (pos + 4 > text.length()) throw error("truncated \\u escape");
    int v = 0;
    for (int i = 0; i < 4; i++) {
      int d = hexDigit(text.charAt(pos + i));
      if (d < 0) throw error("invalid \\u escape");
      v = v * 16 + d;
    }
    pos += 4;
    return (char) v;
  }

  /** ASCII hex digits only (Character.digit also takes other scripts' digits). */
  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  private Object number() throws ProtocolException {
    int start = pos;
    boolean integral = true;
    if (peek() == '-') pos++;
    if (peek() == '0') pos++;
    else if (!digits()) throw error("invalid number");
    if (peek() == '.') {
      integral = false;
      pos++;
      if (!digits()) throw error("invalid number: digits expected after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      pos++;
      if (peek() == '+' || peek() == '-') pos++;
      if (!digits()) throw error("invalid number: digits expected in the exponent");
    }
    String n = text.substring(start, pos);
    if (integral) {
      try {
        return Long.parseLong(n);
      } catch (NumberFormatException tooBigForLong) {
        return new BigInteger(n);
      }
    }
    return Double.parseDouble(n);
  }

  private boolean digits() {
    int start = pos;
    while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') pos++;
    return pos > start;
  }

  private Object literal(String word, Object value) throws ProtocolException {
    if (!text.startsWith(word, pos)) throw error("invalid literal, expected " + word);
    pos += word.length();
    return value;
  }

  private void expect(char c) throws ProtocolException {
    if (peek() != c) throw error("expected '" + c + "'");
    pos++;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipSpace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      pos++;
    }
  }

  private ProtocolException error(String what) {
    return errorAt(pos, what);
  }

  private ProtocolException errorAt(int at, String what) {
    return new ProtocolException("invalid JSON at offset " + at + ": " + what);
  }
}
