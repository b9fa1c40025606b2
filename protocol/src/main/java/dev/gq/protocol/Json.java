package dev.gq.protocol;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;

/**
 * The small JSON codec of the wire protocol. {@link #parse} turns one document into
 * {@code Map<String, Object>} (insertion ordered), {@code List<Object>}, {@code String},
 * {@code Long} (integers that fit), {@code BigInteger} (integers that do not: never wrapped or
 * rounded), {@code Double}, {@code Boolean} or {@code null}; it rejects trailing text, duplicate
 * keys, invalid escapes and nesting deeper than {@link Protocol#MAX_DEPTH}. {@link #parseStrict},
 * for documents people write (batch lines), also rejects lone surrogates, which the wire carries
 * only because {@link #write} escapes them.
 * {@link #write} produces compact JSON on one line: control characters and lone surrogates are
 * escaped, other characters (non-BMP included) are written as they are, to be sent as UTF-8.
 */
public final class Json {
  private Json() {}

  /** Parses one JSON document; the message of the exception names the offset and the problem. */
  public static Object parse(String text) throws ProtocolException {
    return new JsonParser(text, false).document();
  }

  /** As {@link #parse}, and a string holding half of a surrogate pair (no character at all) is refused. */
  public static Object parseStrict(String text) throws ProtocolException {
    return new JsonParser(text, true).document();
  }

  /** Writes a value (see the type Javadoc for the accepted types) as compact one-line JSON. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder(64);
    write(sb, value, 0);
    return sb.toString();
  }

  /** Appends {@code value} as compact JSON. */
  public static void write(StringBuilder sb, Object value) {
    write(sb, value, 0);
  }

  /** Appends {@code s} as a quoted JSON string. */
  public static void quote(StringBuilder sb, String s) {
    sb.append('"');
    int n = s.length();
    int plain = 0;  // where the run of characters copied as they are starts: appended in one go
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && !Character.isSurrogate(c)) continue;
      sb.append(s, plain, i);
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20) escapeControl(sb, c);
      else i = surrogate(sb, s, i);
      plain = i + 1;
    }
    sb.append(s, plain, n);
    sb.append('"');
  }

  private static void escapeControl(StringBuilder sb, char c) {
    switch (c) {
      case '\n' -> sb.append("\\n");
      case '\r' -> sb.append("\\r");
      case '\t' -> sb.append("\\t");
      case '\b' -> sb.append("\\b");
      case '\f' -> sb.append("\\f");
      default -> hex(sb, c);
    }
  }

  /** A valid pair is kept as is (UTF-8 encodes it as one code point); a lone half is escaped. */
  private static int surrogate(StringBuilder sb, String s, int i) {
    char c = s.charAt(i);
    if (Character.isHighSurrogate(c) && i + 1 < s.length()
        && Character.isLowSurrogate(s.charAt(i + 1))) {
      sb.append(c).append(s.charAt(i + 1));
      return i + 1;
    }
    hex(sb, c);
    return i;
  }

  private static void hex(StringBuilder sb, char c) {
    String digits = "0123456789abcdef";
    sb.append("\\u")
        .append(digits.charAt((c >> 12) & 15)).append(digits.charAt((c >> 8) & 15))
        .append(digits.charAt((c >> 4) & 15)).append(digits.charAt(c & 15));
  }

  private static void write(StringBuilder sb, Object v, int depth) {
    if (depth > Protocol.MAX_DEPTH) {
      throw new IllegalArgumentException("JSON value nested deeper than " + Protocol.MAX_DEPTH);
    }
    if (v == null) sb.append("null");
    else if (v instanceof String s) quote(sb, s);
    else if (v instanceof Boolean b) sb.append(b.booleanValue());
    else if (v instanceof Map<?, ?> m) writeMap(sb, m, depth);
    else if (v instanceof Collection<?> c) writeList(sb, c, depth);
    else if (v instanceof Number n) writeNumber(sb, n);
    else throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
  }

  private static void writeNumber(StringBuilder sb, Number n) {
    if (n instanceof Double || n instanceof Float) {
      double d = n.doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException("JSON has no NaN or infinity: " + d);
      }
      sb.append(d);
    } else if (n instanceof BigInteger || n instanceof BigDecimal) {
      sb.append(n); // a parsed integer too big for a long is written back as read, never wrapped
    } else {
      sb.append(n.longValue());
    }
  }

  private static void writeMap(StringBuilder sb, Map<?, ?> m, int depth) {
    sb.append('{');
    boolean first = true;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      if (!(e.getKey() instanceof String key)) {
        throw new IllegalArgumentException("JSON object keys must be strings: " + e.getKey());
      }
      if (!first) sb.append(',');
      first = false;
      quote(sb, key);
      sb.append(':');
      write(sb, e.getValue(), depth + 1);
    }
    sb.append('}');
  }

  private static void writeList(StringBuilder sb, Collection<?> c, int depth) {
    sb.append('[');
    boolean first = true;
    for (Object o : c) {
      if (!first) sb.append(',');
      first = false;
      write(sb, o, depth + 1);
    }
    sb.append(']');
  }
}
