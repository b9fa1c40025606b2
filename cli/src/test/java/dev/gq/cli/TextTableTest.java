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
  void noLineIsLongerThanTheWidthEvenWhenTheColumnsCannotShrinkEnough() {
    TextTable t = new TextTable(List.of("ID", "COMMAND"));
    t.add(List.of("1", "python train.py --epochs 100"));
    assertEquals("ID  …\n1   …\n", render(t, 5));
    assertEquals("ID  COMMAND\n1   python trai…\n", render(t, 16), "the last column keeps a few characters while it can");
  }

  @Test
  void theWidestColumnThatMayShrinkGivesWayFirst() {
    TextTable t = TextTable.of(List.of(new TextTable.Column("ID", 0), new TextTable.Column("NAME", 4),
        new TextTable.Column("COMMAND", 6)));
    t.add(List.of("12345", "a-long-name", "python train.py"));
    assertEquals("ID     NAME     COMMAND\n12345  a-long…  python …\n", render(t, 24));
    assertEquals("12345  a-l…  python…", render(t, 20).lines().toList().get(1), "then each down to its narrowest");
  }

  @Test
  void paintedCellsKeepTheColumnsOfPlainOnes() {
    TextTable t = new TextTable(List.of("STATE", "ID"));
    t.paint(0, s -> "<" + s + ">");
    t.add(List.of("RUNNING", "1"));
    t.add(List.of("DONE", "2"));
    assertEquals("STATE    ID\n<RUNNING>  1\n<DONE>     2\n", render(t, 0));
  }

  @Test
  void laterPagesKeepTheFirstPagesFittedWidths() {
    StringWriter s = new StringWriter();
    PrintWriter out = new PrintWriter(s, true);
    List<TextTable.Column> cols = List.of(new TextTable.Column("ID", 0), new TextTable.Column("NAME", 4));
    TextTable first = TextTable.of(cols);
    first.add(List.of("10", "name"));
    int[] widths = first.print(out, 20, null, true);
    TextTable second = TextTable.of(cols);
    second.add(List.of("9", "a-much-longer-name"));
    second.print(out, 20, widths, false);
    assertEquals("ID  NAME\n10  name\n9   a-m…\n", s.toString());
  }

  @Test
  void cut() {
    assertEquals("abc", TextTable.cut("abc", 3));
    assertEquals("a…", TextTable.cut("abc", 2));
    assertEquals("…", TextTable.cut("abc", 0));
  }

  @Test
  void cutMiddleKeepsBothEnds() {
    assertEquals("lr-sweep-v2", TextTable.cutMiddle("lr-sweep-v2", 11));
    assertEquals("lr-s…p-v2", TextTable.cutMiddle("lr-sweep-v2", 9));
    assertEquals("l…", TextTable.cutMiddle("lr-sweep-v2", 2));
  }

  @Test
  void aColumnCutInTheMiddleKeepsTheEndsOfItsCells() {
    TextTable t = TextTable.of(List.of(new TextTable.Column("GROUP", 8), new TextTable.Column("N", 0)));
    t.cutInMiddle(0);
    t.add(List.of("sweep-of-the-big-model-v2", "1"));
    t.add(List.of("sweep-of-the-big-model-v3", "2"));
    StringWriter w = new StringWriter();
    t.print(new PrintWriter(w), 15);
    assertEquals("GROUP         N\nsweep-…el-v2  1\nsweep-…el-v3  2\n", w.toString());
  }

  @Test
  void rowsMustMatchTheHeader() {
    TextTable t = new TextTable(List.of("A", "B"));
    assertThrows(IllegalArgumentException.class, () -> t.add(List.of("1")));
  }
}
