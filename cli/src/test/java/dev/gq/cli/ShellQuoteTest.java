package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellQuoteTest {

  @Test
  void plainWordsStayAsTheyAre() {
    assertEquals("python -u train.py --lr=3e-4 a/b:c,d@e%f+g", ShellQuote.join(
        List.of("python", "-u", "train.py", "--lr=3e-4", "a/b:c,d@e%f+g")));
  }

  @Test
  void spacesQuotesAndEmptyWordsAreQuoted() {
    assertEquals("echo 'a b' '' 'it'\"'\"'s' '$HOME' 'é'", ShellQuote.join(List.of("echo", "a b", "", "it's", "$HOME", "é")));
  }

  @Test
  void c1ControlsLineSeparatorsAndBidiOverridesUseAnsiCQuoting() {
    assertEquals("echo $'a\\u0085b' $'\\u2028' $'x\\u202ey\\u2069' 'é'", ShellQuote.join(List.of("echo", "a\u0085b", "\u2028", "x\u202ey\u2069", "é")));
  }

  @Test
  void controlCharactersUseAnsiCQuoting() {
    assertEquals("printf $'a\\nb\\t\\'c\\\\\\x01'", ShellQuote.join(List.of("printf", "a\nb\t'c\\\u0001")));
  }
}
