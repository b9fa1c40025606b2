package dev.gq.cli;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.gq.core.job.PrintableText;

/**
 * How gq's JSON output writes strings: besides what JSON itself escapes (quotes, backslashes, C0
 * controls), every character {@link PrintableText} keeps off the terminal (DEL, C1 controls, the
 * line and paragraph separators, bidirectional overrides) as a u-escape with four lower-case hex
 * digits, as {@link PrintableText} writes them: the values read back the same, and the text shows
 * nothing raw on a terminal.
 */
final class JsonEscapes extends CharacterEscapes {
  static final JsonEscapes INSTANCE = new JsonEscapes();
  private static final int[] ASCII = ascii();

  private JsonEscapes() {}

  private static int[] ascii() {
    int[] codes = CharacterEscapes.standardAsciiEscapesForJSON();
    codes[0x7f] = CharacterEscapes.ESCAPE_CUSTOM;
    return codes;
  }

  @Override public int[] getEscapeCodesForAscii() {
    return ASCII;
  }

  @Override public SerializableString getEscapeSequence(int ch) {
    return ch <= 0xffff && PrintableText.hidden((char) ch) ? new SerializedString(String.format("\\u%04x", ch)) : null;
  }
}
