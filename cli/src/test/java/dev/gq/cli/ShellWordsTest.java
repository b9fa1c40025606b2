package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShellWordsTest {
  private static String refusal(String line) {
    return assertThrows(IllegalArgumentException.class, () -> ShellWords.split(line)).getMessage();
  }

  @Test
  void blanksSeparateWords() {
    assertEquals(List.of("python", "train.py", "--lr", "3e-4"), ShellWords.split("  python\ttrain.py  --lr 3e-4 "));
  }

  @Test
  void quotesAndBackslashesWorkAsInAShell() {
    assertEquals(List.of("echo", "a b", "it's", "x\"y", "$HOME", "a\\b", "c d"),
        ShellWords.split("echo 'a b' it\\'s \"x\\\"y\" '$HOME' \"a\\b\" c\\ d"));
    assertEquals(List.of("a", ""), ShellWords.split("a ''"));
    assertEquals(List.of("--name=a b"), ShellWords.split("--name='a b'"));
  }

  @Test
  void aHashStartingAWordBeginsAComment() {
    assertEquals(List.of("run", "x#y"), ShellWords.split("run x#y # the best one"));
    assertEquals(List.of(), ShellWords.split("# nothing"));
  }

  @Test
  void whatAShellWouldExpandIsRefused() {
    assertTrue(refusal("python x.py --out $OUT").startsWith("'$' and '`' would be expanded by a shell"));
    assertTrue(refusal("echo \"$HOME\"").startsWith("'$' and '`'"));
    assertTrue(refusal("ls *.txt").startsWith("unquoted '*' would be a file name pattern"));
    assertTrue(refusal("cat ~/x").startsWith("a leading '~'"));
    assertTrue(refusal("a | b").startsWith("unquoted '|' is shell syntax"));
    assertTrue(refusal("a > log").startsWith("unquoted '>' is shell syntax"));
    assertTrue(refusal("a; b").startsWith("unquoted ';' is shell syntax"));
    assertEquals("'CUDA=...' would set a variable in a shell; write 'env CUDA=... CMD' instead", refusal("CUDA=1 python x.py"));
  }

  @Test
  void quotedSpecialCharactersPassAsTheyAre() {
    assertEquals(List.of("ls", "*.txt", "a|b", "~/x", "A=1"), ShellWords.split("ls '*.txt' 'a|b' '~/x' A=1"));
    assertEquals(List.of("x", "a=b~c"), ShellWords.split("x a=b~c"));
  }

  @Test
  void unterminatedQuotesAndTrailingBackslashAreRefused() {
    assertEquals("unterminated single quote", refusal("echo 'a"));
    assertEquals("unterminated double quote", refusal("echo \"a"));
    assertEquals("the line ends in a backslash; each job is one line", refusal("echo a\\"));
  }
}
