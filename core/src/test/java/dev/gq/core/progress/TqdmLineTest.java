package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class TqdmLineTest {
  private static TqdmLine.Bar lastBar(String fixture) {
    List<String> segments = LogTail.segments(Fixtures.bytes(fixture), false);
    return TqdmLine.parse(segments.get(segments.size() - 1));
  }

  @Test
  void readsCountTotalRemainingAndRateOfARealBar() {
    TqdmLine.Bar b = lastBar("slow-steps.log"); // Epoch 3:  18%|...| 7/40 [00:17<01:22,  2.50s/it]
    assertEquals("Epoch 3|40", b.key());
    assertEquals(7, b.current());
    assertEquals(40, b.total());
    assertEquals(Duration.ofSeconds(82), b.remaining());
    assertEquals(0.4, b.ratePerSecond(), 1e-9); // 2.50 s/it is 0.4 it/s
  }

  @Test
  void scalesCountsAndRatesWithTheirPrefix() {
    TqdmLine.Bar b = lastBar("unit-scale.log"); // 1.80M/3.40M [00:06<00:05, 300kB/s]
    assertEquals(1_800_000, b.current());
    assertEquals(3_400_000, b.total());
    assertEquals(300_000, b.ratePerSecond(), 1e-6);
    assertEquals(Duration.ofSeconds(5), b.remaining());
  }

  @Test
  void scalesPlainIterationsWithAKiloPrefix() {
    TqdmLine.Bar b = lastBar("unit-scale-it.log"); // tokens: 35%|...| 1.20k/3.40k [00:01<00:02, 1.00kit/s]
    assertEquals("tokens|3.40k", b.key());
    assertEquals(1_200, b.current());
    assertEquals(3_400, b.total());
    assertEquals(1_000, b.ratePerSecond(), 1e-6);
    assertEquals(Duration.ofSeconds(2), b.remaining());
  }

  @Test
  void leavesWhatTqdmDoesNotKnowYetUnknown() {
    TqdmLine.Bar b = TqdmLine.parse(LogTail.segments(Fixtures.bytes("train-eval.log"), false).get(0));
    assertEquals(0, b.current());
    assertEquals(1000, b.total());
    assertNull(b.remaining());
    assertTrue(Double.isNaN(b.ratePerSecond()));
  }

  @Test
  void readsABarWithoutATotal() {
    TqdmLine.Bar b = lastBar("no-total.log"); // batches: 25it [00:02, 10.00it/s]
    assertEquals("batches|", b.key());
    assertEquals(25, b.current());
    assertEquals(0, b.total());
    assertEquals(10.0, b.ratePerSecond(), 1e-9);
    assertNull(b.remaining());
  }

  @Test
  void readsHoursAndIgnoresTerminalEscapesAndPostfix() {
    TqdmLine.Bar b = TqdmLine.parse(
        "\u001b[A  2%|▏         | 501/22500 [01:33<1:08:10,  7.96it/s, loss=0.5]\u001b[A");
    assertEquals("|22500", b.key());
    assertEquals(Duration.ofSeconds(3600 + 8 * 60 + 10), b.remaining());
    assertEquals(7.96, b.ratePerSecond(), 1e-9);
  }

  @Test
  void takesNoOtherLineForABar() {
    for (String line : new String[] {
        "dropout 10%", "{'loss': 0.8, 'learning_rate': 5e-05, 'epoch': 0.10}", "Epoch 2/10 [  300/  500] loss 0.312",
        "Saving model checkpoint to out/checkpoint-500", "copied 12 [files, see log]", "50%|| 0/0 [00:00<?, ?it/s]"}) {
      assertNull(TqdmLine.parse(line), line);
    }
  }
}
