package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextTableTest {

  private static String render(TextTable t, int width) {
    StringWriter s = new StringWriter();
    t.print(new PrintWriter(s, true), width);
    return s.toString();
  }

  @Test
  void padsColumnsWithTwoSpacesAndNoTrailingBlanks() {
    TextTable t = new TextTable(List.of("A", "LONGER", "LAST"));
    t.add(List.of("x", "y", ""));
    t.add(List.of("wide", "z", "end"));
    assertEquals("A     LONGER  LAST\nx     y\nwide  z       end\n", render(t, 0));
  }

  @Test
  void lastColumnIsCutToFitTheWidth() {
    TextTable t = new TextTable(List.of("ID", "COMMAND"));
    t.add(List.of("1", "python train.py --epochs 100"));
    assertEquals("ID  COMMAND\n1   python train.py --e…\n", render(t, 24));
  }

  @Test
  void lastColumnKeepsAFewCharactersOnNarrowTerminals() {
    TextTable t = new TextTable(List.of("ID", "COMMAND"));
    t.add(List.of("1", "python train.py --epochs 100"));
    assertEquals("1   python trai…", render(t, 5).lines().toList().get(1));
  }

  @Test
  void cut() {
    assertEquals("abc", TextTable.cut("abc", 3));
    assertEquals("a…", TextTable.cut("abc", 2));
    assertEquals("…", TextTable.cut("abc", 0));
  }

  @Test
  void rowsMustMatchTheHeader() {
    TextTable t = new TextTable(List.of("A", "B"));
    assertThrows(IllegalArgumentException.class, () -> t.add(List.of("1")));
  }
}
