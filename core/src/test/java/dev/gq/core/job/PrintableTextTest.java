package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class PrintableTextTest {

  @Test
  void ordinaryTextIncludingAccentsAndOtherScriptsIsFine() {
    for (String s : new String[] {"sweep-3", "lr=0.1 bs=64", "résumé ü 学习", "עברית", "emoji 🚀", "a\\u202eb"}) {
      assertNull(PrintableText.problem(s), s);
      assertSame(s, PrintableText.escape(s));
    }
  }

  @Test
  void c0AndC1ControlsAndDeleteAreHidden() {
    for (char c : new char[] {0, '\n', '\t', 0x1b, 0x7f, 0x80, 0x85, 0x9b, 0x9f}) assertTrue(PrintableText.hidden(c), Integer.toHexString(c));
    assertFalse(PrintableText.hidden((char) 0xa0));
    assertFalse(PrintableText.hidden('é'));
  }

  @Test
  void lineSeparatorsAndBidiOverridesAndIsolatesAreHidden() {
    for (char c : new char[] {'\u2028', '\u2029', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'})
      assertTrue(PrintableText.hidden(c), Integer.toHexString(c));
    assertFalse(PrintableText.hidden('\u2027'));
    assertFalse(PrintableText.hidden('\u202f'));
    assertFalse(PrintableText.hidden('\u2065'));
    assertFalse(PrintableText.hidden('\u206a'));
  }

  @Test
  void problemNamesTheKindTheCodePointAndWhereItIs() {
    assertEquals("must not contain control characters (U+0085 at character 2)", PrintableText.problem("a\u0085b"));
    assertEquals("must not contain line or paragraph separators (U+2028 at character 1)", PrintableText.problem("\u2028x"));
    assertEquals("must not contain bidirectional formatting characters (U+202E at character 5)", PrintableText.problem("evil\u202etxt.exe"));
    assertEquals("must not contain bidirectional formatting characters (U+2066 at character 1)", PrintableText.problem("\u2066x"));
  }

  @Test
  void escapeShowsEachHiddenCharacterVisiblyOnOneLine() {
    assertEquals("a\\nb\\tc\\rd", PrintableText.escape("a\nb\tc\rd"));
    assertEquals("\\x1b[31mred\\x7f", PrintableText.escape("\u001b[31mred\u007f"));
    assertEquals("x\\u0085y\\u2028z", PrintableText.escape("x\u0085y\u2028z"));
    assertEquals("evil\\u202etxt.exe", PrintableText.escape("evil\u202etxt.exe"));
    String escaped = PrintableText.escape("\u2066\u2069\u009b");
    assertEquals("\\u2066\\u2069\\u009b", escaped);
    assertFalse(PrintableText.hasHidden(escaped));
  }

  @Test
  void linesAreEscapedEachWithTheirNewlinesKept() {
    assertEquals("a\\x1b[31m\nb\\r\\u009b\n", PrintableText.escapeLines("a\u001b[31m\nb\r\u009b\n"));
    assertEquals("plain\ntext", PrintableText.escapeLines("plain\ntext"));
  }

  @Test
  void aTextHasAHiddenCharacterExactlyWhenOneOfItsCharactersIs() {
    for (int c = 0; c <= 0xffff; c++)
      assertEquals(PrintableText.hidden((char) c), PrintableText.hasHidden("ab" + (char) c + "cd"), "U+" + Integer.toHexString(c));
  }
}
