package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ProgressFileTest {
  @Test
  void readsCurrentAndTotalOnOneLine() {
    assertEquals(Reading.of(Source.PROGRESS_FILE, 530, 1000), ProgressFile.parse("530 1000\n"));
    assertEquals(Reading.of(Source.PROGRESS_FILE, 0, 7), ProgressFile.parse("  0\t7"));
    assertEquals(Reading.of(Source.PROGRESS_FILE, 7, 7), ProgressFile.parse("7 7"));
  }

  @Test
  void readsNothingFromAFileThatIsNotOneLineOfTwoValidCounts() {
    for (String bad : new String[] {"", "\n", "530", "530 ", "530 1000 5", "530/1000", "1001 1000", "0 0", "-1 5",
        "1.5 10", "5 10\n6 10\n", "99999999999999999999 1", null}) {
      assertNull(ProgressFile.parse(bad), String.valueOf(bad));
    }
  }
}
