package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class LogPatternsTest {
  @Test
  void readsEachPatternInAnyCase() {
    assertEquals(Reading.of(Source.LOG_PATTERN, 120, 1000), LogPatterns.inLine("step 120/1000 loss=0.3"));
    assertEquals(Reading.of(Source.LOG_PATTERN, 120, 1000), LogPatterns.inLine("Step 120 / 1000"));
    assertEquals(Reading.of(Source.LOG_PATTERN, 3, 40), LogPatterns.inLine("train [3/40] loss 0.2"));
    assertEquals(Reading.of(Source.LOG_PATTERN, 2, 10), LogPatterns.inLine("EPOCH 2/10"));
    assertEquals(Reading.of(Source.LOG_PATTERN, 7, 50), LogPatterns.inLine("Iteration 7 of 50"));
  }

  @Test
  void neverReadsABarePercentage() {
    assertNull(LogPatterns.inLine("model: resnet18, dropout 10%, lr 0.1"));
    assertNull(LogPatterns.newest(List.of("training 53% done", "dropout 10%")));
  }

  @Test
  void refusesCountsPastTheirTotalOrATotalOfOne() {
    assertNull(LogPatterns.inLine("Step 12/10"));
    assertNull(LogPatterns.inLine("[1/1]"));
    assertNull(LogPatterns.inLine("date 2024/12"));
  }

  @Test
  void takesTheNewestLineAndWithinALineTheFirstPatternInOrder() {
    assertEquals(Reading.of(Source.LOG_PATTERN, 350, 500), LogPatterns.inLine("Epoch 2/10 [350/500]"));
    assertEquals(Reading.of(Source.LOG_PATTERN, 9, 10),
        LogPatterns.newest(List.of("Step 8/10", "Step 9/10", "saving", "dropout 10%")));
    assertEquals(Reading.of(Source.LOG_PATTERN, 4, 10), LogPatterns.inLine("[12/10] Step 4/10"));
  }
}
