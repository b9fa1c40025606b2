package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EstimatorTest {
  private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
  private static final String STATE = Fixtures.text("trainer_state.json");

  private static Estimator.Result once(String file, byte[] log, String state) {
    return Estimator.estimate(new Estimator.Inputs(file, log, false, state), Estimator.Memory.EMPTY, T0);
  }

  @Test
  void theFirstSourceThatYieldsWins() {
    byte[] log = Fixtures.bytes("hf-trainer.log");
    assertEquals(Source.PROGRESS_FILE, once("3 4", log, STATE).estimate().source());
    assertEquals(Source.TQDM, once("garbage", log, STATE).estimate().source());
    assertEquals(Source.LOG_PATTERN, once(null, Fixtures.bytes("plain-patterns.log"), STATE).estimate().source());
    assertEquals(Source.CHECKPOINT, once(null, "dropout 10%\n".getBytes(StandardCharsets.UTF_8), STATE).estimate().source());
    assertNull(once(null, "dropout 10%\n".getBytes(StandardCharsets.UTF_8), null).estimate());
  }

  @Test
  void aBarWithoutATotalYieldsToASourceWithOne() {
    assertEquals(Source.CHECKPOINT, once(null, Fixtures.bytes("no-total.log"), STATE).estimate().source());
    Estimate alone = once(null, Fixtures.bytes("no-total.log"), null).estimate();
    assertEquals(Source.TQDM, alone.source());
    assertEquals("", alone.column());
  }

  @Test
  void tqdmGivesItsOwnRateAndRemainingTime() {
    Estimate e = once(null, Fixtures.bytes("hf-trainer.log"), null).estimate();
    assertEquals(510, e.current());
    assertEquals(22500, e.total());
    assertEquals(Duration.ofSeconds(46 * 60 + 2), e.remaining());
    assertEquals("2% ETA 46m2s", e.column());
  }

  @Test
  void aResumedRunGetsItsRateFromTwoSeenMomentsNotFromItsStart() {
    // resumed at step 9,000 of 10,000 a minute ago: one reading shows the percentage, no ETA
    Estimator.Result first = Estimator.estimate(
        new Estimator.Inputs("9000 10000", null, false, null), Estimator.Memory.EMPTY, T0);
    assertEquals("90%", first.estimate().column());
    assertNull(first.estimate().remaining());
    assertTrue(Double.isNaN(first.estimate().ratePerSecond()));

    // ten steps in the next minute: 1,000 steps left at 1/6 step per second is 1h40m
    Estimate second = Estimator.estimate(
        new Estimator.Inputs("9010 10000", null, false, null), first.memory(), T0.plusSeconds(60)).estimate();
    assertEquals(10 / 60.0, second.ratePerSecond(), 1e-9);
    assertEquals(Duration.ofSeconds(5940), second.remaining());
    assertEquals("90% ETA 1h39m", second.column());
  }

  @Test
  void aTqdmBarThatDoesNotKnowItsRateYetUsesTheHistory() {
    byte[] start = "  0%|          | 0/100 [00:00<?, ?it/s]".getBytes(StandardCharsets.UTF_8);
    byte[] later = " 10%|#         | 10/100 [00:05<?, ?it/s]".getBytes(StandardCharsets.UTF_8);
    Estimator.Result first = Estimator.estimate(new Estimator.Inputs(null, start, false, null), Estimator.Memory.EMPTY, T0);
    Estimate e = Estimator.estimate(new Estimator.Inputs(null, later, false, null), first.memory(), T0.plusSeconds(5))
        .estimate();
    assertEquals(2.0, e.ratePerSecond(), 1e-9);
    assertEquals(Duration.ofSeconds(45), e.remaining());
  }

  @Test
  void theMemoryCarriesTheBarsFromOneReadingToTheNext() {
    byte[] midEval = Fixtures.upTo("train-eval.log", "Evaluating:  40%");
    Estimator.Result first = once(null, midEval, null);
    assertEquals(1000, first.estimate().total());
    Estimate second = Estimator.estimate(new Estimator.Inputs(null, Fixtures.upTo("train-eval.log", "Evaluating:  80%"),
        false, null), first.memory(), T0.plusSeconds(2)).estimate();
    assertEquals(50, second.total());
  }

  @Test
  void theColumnIsBlankWhenUnknownAndRoundsDownOtherwise() {
    assertEquals("", new Estimate(5, 0, Double.NaN, 1, null, Source.TQDM).column());
    assertEquals("99%", new Estimate(999, 1000, 99.9, Double.NaN, null, Source.LOG_PATTERN).column());
    assertEquals("53% ETA 1h24m", new Estimate(53, 100, 53, 1, Duration.ofSeconds(84 * 60 + 59), Source.TQDM).column());
    assertEquals("53% ETA 12m5s", new Estimate(53, 100, 53, 1, Duration.ofMillis(725_900), Source.TQDM).column());
    assertEquals("1% ETA 2d3h", new Estimate(1, 100, 1, 1, Duration.ofMinutes(51 * 60 + 59), Source.TQDM).column());
    assertEquals("100% ETA 0s", new Estimate(9, 9, 100, 1, Duration.ZERO, Source.TQDM).column());
  }
}
