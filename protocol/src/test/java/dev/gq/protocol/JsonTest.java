package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

  @Test
  void nestedValuesRoundTrip() throws Exception {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("s", "hi");
    m.put("n", 42L);
    m.put("neg", -7L);
    m.put("d", 2.5);
    m.put("t", true);
    m.put("f", false);
    m.put("z", null);
    m.put("list", Arrays.asList(1L, "two", null, List.of(), Map.of()));
    m.put("obj", Map.of("k", List.of(Map.of("deep", "x"))));
    String json = Json.write(m);
    assertEquals(m, Json.parse(json));
    assertEquals(json, Json.write(Json.parse(json)));
  }

  @Test
  void writesCompactJsonInInsertionOrder() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("b", 1);
    m.put("a", List.of("x", 2L));
    assertEquals("{\"b\":1,\"a\":[\"x\",2]}", Json.write(m));
  }

  @Test
  void escapesQuotesBackslashesAndEveryControlCharacter() throws Exception {
    assertEquals("\"a\\\"b\\\\c\"", Json.write("a\"b\\c"));
    assertEquals("\"\\n\\r\\t\\b\\f\\u0000\\u001f\"", Json.write("\n\r\t\b\f\u0000\u001f"));
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0x20; c++) all.append(c);
    String json = Json.write(all.toString());
    for (int i = 0; i < json.length(); i++) assertTrue(json.charAt(i) >= 0x20, "raw control char");
    assertEquals(all.toString(), Json.parse(json));
  }

  @Test
  void keepsNonAsciiAndNonBmpCharacters() throws Exception {
    String s = "é€ 日本 😀 \u2028";
    assertEquals("\"" + s + "\"", Json.write(s));
    assertEquals(s, Json.parse(Json.write(s)));
  }

  @Test
  void decodesUnicodeEscapesIncludingSurrogatePairs() throws Exception {
    assertEquals("é😀/", Json.parse("\"\\u00e9\\ud83d\\uDE00\\/\""));
  }

  @Test
  void escapesBetweenRunsOfPlainTextKeepEveryCharacterInPlace() throws Exception {
    String s = "\"ab\\cd\nef😀gh\ud800ij\n";
    assertEquals("\"\\\"ab\\\\cd\\nef😀gh\\ud800ij\\n\"", Json.write(s));
    assertEquals(s, Json.parse(Json.write(s)));
    String lines = "1    WAITING  -     true\n".repeat(3);
    assertEquals("\"" + lines.replace("\n", "\\n") + "\"", Json.write(lines));
  }

  @Test
  void escapesLoneSurrogatesSoTheyRoundTrip() throws Exception {
    String lone = "a\ud800b\udc00";
    assertEquals("\"a\\ud800b\\udc00\"", Json.write(lone));
    assertEquals(lone, Json.parse(Json.write(lone)));
  }

  @Test
  void strictParsingRefusesLoneSurrogatesAndKeepsPairs() throws Exception {
    assertEquals("\ud83d\ude00", Json.parseStrict("\"\\ud83d\\ude00\""));
    assertEquals(Map.of("k", "\ud83d\ude00"), Json.parseStrict("{\"k\":\"\ud83d\ude00\"}"));
    for (String bad : List.of("\"\\ud800\"", "\"\\udc00\"", "\"\\ud800x\"", "\"\\ud800\\u0041\"", "\"a\ud800\"", "{\"\\udfff\":1}")) {
      ProtocolException e = assertThrows(ProtocolException.class, () -> Json.parseStrict(bad), bad);
      assertTrue(e.getMessage().contains("lone surrogate"), e.getMessage());
    }
  }

  @Test
  void aFrameWithAnIntegerBeyondALongIsRefusedNotWrapped() {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> Frame.decode("{\"t\":\"exit\",\"code\":18446744073709551616}"));
    assertTrue(e.getMessage().contains("'code'"), e.getMessage());
  }

  @Test
  void parsesNumbers() throws Exception {
    assertEquals(0L, Json.parse("0"));
    assertEquals(-0L, Json.parse("-0"));
    assertEquals(Long.MAX_VALUE, Json.parse("9223372036854775807"));
    assertEquals(Long.MIN_VALUE, Json.parse("-9223372036854775808"));
    assertEquals(new java.math.BigInteger("9223372036854775808"), Json.parse("9223372036854775808"));
    assertEquals(new java.math.BigInteger("-18446744073709551658"), Json.parse("-18446744073709551658"));
    assertEquals(1.5, Json.parse("1.5"));
    assertEquals(-1e-3, Json.parse("-1E-3"));
    assertEquals(1e10, Json.parse("1e+10"));
  }

  @Test
  void writesNumbersAsJson() throws Exception {
    assertEquals("[3,3.0,1.0E20,-0.5]", Json.write(List.of(3, 3.0, 1e20, -0.5)));
    assertEquals(List.of(3L, 3.0, 1e20, -0.5), Json.parse("[3,3.0,1.0E20,-0.5]"));
    assertEquals("[9223372036854775808,-18446744073709551658]",
        Json.write(Json.parse("[9223372036854775808,-18446744073709551658]")), "an integer beyond a long is written back as read");
    assertThrows(IllegalArgumentException.class, () -> Json.write(Double.NaN));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Double.POSITIVE_INFINITY));
  }

  @Test
  void allowsWhitespaceAroundTokens() throws Exception {
    assertEquals(Map.of("a", List.of(1L, 2L)), Json.parse(" \t{ \"a\" :\r\n[ 1 , 2 ] } \n"));
    assertNull(Json.parse(" null "));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "", "   ", "{", "[", "[1,]", "[,1]", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}",
      "{\"a\" 1}", "[1 2]", "01", "1.", ".5", "-", "+1", "1e", "1e+", "0x10", "'x'",
      "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"\\u\u0661\u0662\u0663\u0664\"", "tru", "nul", "falsey", "True",
      "NaN", "Infinity", "{} {}", "[1] x", "1 2", "\"a\"\"b\"", "\"tab\there\"", "\"a\nb\"",
      "{\"a\":1,\"a\":2}", "[\u0001]", "\"\\"
  })
  void rejectsMalformedInput(String text) {
    ProtocolException e = assertThrows(ProtocolException.class, () -> Json.parse(text));
    assertTrue(e.getMessage().startsWith("invalid JSON at offset "), e.getMessage());
    assertTrue(e.getMessage().indexOf('\n') < 0, "one-line message");
  }

  @Test
  void namesTheOffsetAndTheProblem() {
    ProtocolException e = assertThrows(ProtocolException.class, () -> Json.parse("[1] x"));
    assertEquals("invalid JSON at offset 4: unexpected text after the JSON value", e.getMessage());
    e = assertThrows(ProtocolException.class, () -> Json.parse("{\"k\":1,\"k\":2}"));
    assertEquals("invalid JSON at offset 7: duplicate key 'k'", e.getMessage());
  }

  @Test
  void rejectsTruncatedDocuments() {
    String full = "{\"argv\":[\"a\",\"b\"],\"env\":{\"K\":\"V\\u00e9\"},\"n\":-12.5e3}";
    for (int i = 0; i < full.length(); i++) {
      String cut = full.substring(0, i);
      assertThrows(ProtocolException.class, () -> Json.parse(cut), cut);
    }
  }

  @Test
  void limitsNesting() throws Exception {
    String ok = "[".repeat(Protocol.MAX_DEPTH) + "]".repeat(Protocol.MAX_DEPTH);
    Json.parse(ok);
    String deep = "[".repeat(Protocol.MAX_DEPTH + 1) + "]".repeat(Protocol.MAX_DEPTH + 1);
    ProtocolException e = assertThrows(ProtocolException.class, () -> Json.parse(deep));
    assertTrue(e.getMessage().contains("nested deeper than"), e.getMessage());
    String objects = "{\"a\":".repeat(Protocol.MAX_DEPTH + 1) + "1" + "}".repeat(Protocol.MAX_DEPTH + 1);
    assertThrows(ProtocolException.class, () -> Json.parse(objects));
    assertThrows(ProtocolException.class, () -> Json.parse("[".repeat(100_000)));
  }

  @Test
  void refusesToWriteWhatJsonCannotHold() {
    assertThrows(IllegalArgumentException.class, () -> Json.write(new Object()));
    assertThrows(IllegalArgumentException.class, () -> Json.write(Map.of(1, "x")));
    List<Object> loop = new ArrayList<>();
    Object v = loop;
    for (int i = 0; i < 100; i++) v = List.of(v);
    Object tooDeep = v;
    assertThrows(IllegalArgumentException.class, () -> Json.write(tooDeep));
  }
}
