package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.PrintableText;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.junit.jupiter.api.Test;

class ScreenTextTest {
  private static final List<String> TEXTS = List.of("", "train.py --lr 3e-4", "exit 1 after 3s", "日本語のジョブ",
      "naïve café", "e\u0301t\u0301e\u0301", "job 😀 done", "tab\there", "bell\u0007", "x".repeat(300));

  @Test
  void countsColumnsAsTheTerminalLibraryDoesWithOrWithoutItsWalk() {
    for (String t : TEXTS) {
      String e = PrintableText.escape(t);
      assertEquals(new AttributedString(e).columnLength(), ScreenText.columns(e), e);
    }
    assertTrue(ScreenText.printableAscii("gq top: 3 running"));
    assertFalse(ScreenText.printableAscii("caf\u00e9"));
    assertFalse(ScreenText.printableAscii("a\tb"));
    assertFalse(ScreenText.printableAscii("a\u007fb"));
  }

  @Test
  void fitsPadsAndCutsEveryTextAsByItsDisplayWidth() {
    for (String t : TEXTS) {
      for (int width : new int[] {0, 1, 2, 5, 10, 40, 400}) {
        AttributedString line = new AttributedString(t, AttributedStyle.BOLD);
        AttributedString fit = ScreenText.fit(line, width);
        assertTrue(fit.columnLength() <= width, t + " in " + width);
        if (ScreenText.printableAscii(t)) {
          assertEquals(new AttributedString(t).columnSubSequence(0, width).toString(), fit.toString(), t + " in " + width);
          if (!t.isEmpty() && width > 0) assertEquals(AttributedStyle.BOLD, fit.styleAt(0), "the style is kept");
        }
        String cut = ScreenText.cut(t, width);
        assertTrue(new AttributedString(cut).columnLength() <= Math.max(width, 1), cut + " in " + width);
        String pad = ScreenText.pad(t, width);
        assertEquals(Math.max(width, new AttributedString(PrintableText.escape(t)).columnLength()),
            new AttributedString(pad).columnLength(), t + " padded to " + width);
      }
    }
    assertEquals("train.py …", ScreenText.cut("train.py --lr 3e-4", 10));
    assertEquals("日本語の…", ScreenText.cut("日本語のジョブ", 9));
    assertEquals("   ab", ScreenText.padLeft("ab", 5));
  }
}
