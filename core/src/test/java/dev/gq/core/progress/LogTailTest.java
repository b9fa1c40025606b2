package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogTailTest {
  private static LogTail.Result read(byte[] tail) {
    return LogTail.read(tail, false, Map.of());
  }

  @Test
  void readsTheTrainingBarOfAHuggingFaceRunAfterItsEvaluation() {
    Reading r = read(Fixtures.bytes("hf-trainer.log")).tqdm();
    assertEquals(510, r.current());
    assertEquals(22500, r.total());
    assertEquals(Duration.ofMinutes(46).plusSeconds(2), r.remaining());
    assertEquals(7.96, r.ratePerSecond(), 1e-9);
  }

  @Test
  void prefersTheLargestBarThatStillMoves() {
    byte[] midEval = Fixtures.upTo("train-eval.log", "Evaluating:  40%");
    LogTail.Result first = read(midEval);
    assertEquals(1000, first.tqdm().total()); // nothing known yet: both move, the larger wins
    assertEquals(100, first.tqdm().current());

    byte[] laterInEval = Fixtures.upTo("train-eval.log", "Evaluating:  80%");
    LogTail.Result second = LogTail.read(laterInEval, false, first.bars());
    assertEquals(50, second.tqdm().total()); // training stands still while evaluation runs
    assertEquals(40, second.tqdm().current());

    LogTail.Result after = LogTail.read(Fixtures.bytes("train-eval.log"), false, second.bars());
    assertEquals(1000, after.tqdm().total()); // the evaluation finished, training moves again
    assertEquals(300, after.tqdm().current());
  }

  @Test
  void readsTheLightningEpochBarThenItsValidationWhileTheEpochWaits() {
    LogTail.Result first = read(Fixtures.bytes("lightning.log"));
    assertEquals(450, first.tqdm().current());
    assertEquals(1000, first.tqdm().total());
    assertEquals(Map.of("Epoch 3|1000", 450L, "Validation DataLoader 0|100", 41L, "Sanity Checking DataLoader 0|2", 2L),
        first.bars());

    LogTail.Result again = LogTail.read(Fixtures.bytes("lightning.log"), false,
        Map.of("Epoch 3|1000", 450L, "Validation DataLoader 0|100", 40L));
    assertEquals(41, again.tqdm().current());
    assertEquals(100, again.tqdm().total());
  }

  @Test
  void whenNoBarMovesKeepsTheLargestUnfinishedOne() {
    LogTail.Result first = read(Fixtures.bytes("lightning.log"));
    LogTail.Result same = LogTail.read(Fixtures.bytes("lightning.log"), false, first.bars());
    assertEquals(450, same.tqdm().current());
    assertEquals(1000, same.tqdm().total());
  }

  @Test
  void readsTheRanksOfADistributedRunAsOneBar() {
    LogTail.Result r = read(Fixtures.bytes("ddp.log"));
    assertEquals(Map.of("train|500", 60L), r.bars());
    assertEquals(60, r.tqdm().current());
  }

  @Test
  void readsFourInterleavedRanksWhereOneLagsAsOneBar() {
    LogTail.Result r = read(Fixtures.bytes("ddp-4.log")); // ranks 0-2 at 40/800, rank 3 at 39/800
    assertEquals(Map.of("train|800", 40L), r.bars());
    assertEquals(40, r.tqdm().current());
    assertEquals(800, r.tqdm().total());
    assertEquals(java.time.Duration.ofSeconds(151), r.tqdm().remaining());
  }

  @Test
  void takesABarWithoutATotalOnlyWhenNoBarHasOne() {
    assertEquals(0, read(Fixtures.bytes("no-total.log")).tqdm().total());
    byte[] both = (Fixtures.text("no-total.log") + "\n" + Fixtures.text("slow-steps.log")).getBytes(StandardCharsets.UTF_8);
    assertEquals(40, read(both).tqdm().total());
  }

  @Test
  void skipsTheFragmentATailCutMidFileStartsWith() {
    byte[] tail = "ep 3/40 [00:17<01:22,  2.50s/it]\nStep 5/9 done\n".getBytes(StandardCharsets.UTF_8);
    assertEquals(new Reading(Source.LOG_PATTERN, 5, 9, Double.NaN, null), LogTail.read(tail, true, Map.of()).pattern());
    byte[] longLog = Fixtures.last("train-eval.log", 40_000);
    assertEquals(300, LogTail.read(longLog, true, Map.of()).tqdm().current());
  }

  @Test
  void readsNoMoreThanTheLast64KiB() {
    int fitting = (LogWindow.MAX_BYTES - 9) / 9; // lines of 9 bytes after the 9-byte "Step 7/9"
    byte[] fits = ("Step 7/9\n" + "loss 0.1\n".repeat(fitting)).getBytes(StandardCharsets.UTF_8);
    byte[] tooLong = ("Step 7/9\n" + "loss 0.1\n".repeat(fitting + 1)).getBytes(StandardCharsets.UTF_8);
    assertEquals(Reading.of(Source.LOG_PATTERN, 7, 9), LogTail.read(fits, false, Map.of()).pattern());
    assertNull(LogTail.read(tooLong, false, Map.of()).pattern());
  }

  @Test
  void readsPlainLogPatternsButNotADropoutPercentage() {
    LogTail.Result r = read(Fixtures.bytes("plain-patterns.log"));
    assertNull(r.tqdm());
    assertEquals(Reading.of(Source.LOG_PATTERN, 350, 500), r.pattern());
  }

  @Test
  void readsTheEpochOfLightningsRichBar() {
    assertEquals(Reading.of(Source.LOG_PATTERN, 4, 9), read(Fixtures.bytes("lightning-rich.log")).pattern());
  }
}
