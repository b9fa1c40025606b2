package dev.gq.core.progress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LogWindowTest {
  /** Recorded logs one after another: over 64 KiB, with several bars, ranks and plain pattern lines. */
  private static byte[] longLog() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String f : new String[] {"plain-patterns.log", "train-eval.log", "unit-scale-it.log", "ddp-4.log", "lightning.log",
        "slow-steps.log", "train-eval.log", "hf-trainer.log"}) {
      out.writeBytes(Fixtures.bytes(f));
    }
    return out.toByteArray();
  }

  /** What a fresh read of the log's last window, up to {@code size}, says. */
  private static LogTail.Result whole(byte[] log, int size, Map<String, Long> previous) {
    int from = Math.max(0, size - LogWindow.MAX_BYTES);
    return LogTail.read(Arrays.copyOfRange(log, from, size), from > 0, previous);
  }

  @Test
  void aGrowingLogReadFromWhereTheLastReadingStoppedSaysWhatAWholeReadSays() {
    byte[] log = longLog();
    assertTrue(log.length > LogWindow.MAX_BYTES + 20_000, "the log outgrows one window");
    Random random = new Random(7);
    LogWindow w = LogWindow.EMPTY;
    Map<String, Long> previous = Map.of();
    int size = 0;
    int readings = 0;
    while (size < log.length) {
      size = Math.min(log.length, size + 1 + random.nextInt(random.nextInt(10) == 0 ? 20_000 : 300));
      long from = w.readFrom(size);
      w = w.advance(Arrays.copyOfRange(log, (int) from, size), from);
      LogTail.Result incremental = LogTail.read(w, previous);
      assertEquals(whole(log, size, previous), incremental, "at " + size + " bytes");
      previous = incremental.bars();
      readings++;
    }
    assertTrue(readings > 100, "readings: " + readings);
  }

  @Test
  void aLogThatOnlyGrewIsReadFromTheStartOfItsLastLine() {
    byte[] log = longLog();
    int size = 70_000;
    LogWindow w = LogWindow.EMPTY;
    assertEquals(size - LogWindow.MAX_BYTES, w.readFrom(size), "the first reading reads one window");
    w = w.advance(Arrays.copyOfRange(log, size - LogWindow.MAX_BYTES, size), size - LogWindow.MAX_BYTES);
    int lastLine = Math.max(lastIndexOf(log, size, (byte) '\r'), lastIndexOf(log, size, (byte) '\n')) + 1;
    assertEquals(lastLine, w.readFrom(size + 90), "the next one reads the last line again and what was appended");
    int far = lastLine + LogWindow.MAX_BYTES + 1;
    assertEquals(far - LogWindow.MAX_BYTES, w.readFrom(far), "a log that grew past a whole window is read afresh");
    assertEquals(0, w.readFrom(100), "a log that shrank is read afresh");
  }

  private static int lastIndexOf(byte[] b, int before, byte c) {
    for (int i = before - 1; i >= 0; i--) if (b[i] == c) return i;
    return -1;
  }
}
