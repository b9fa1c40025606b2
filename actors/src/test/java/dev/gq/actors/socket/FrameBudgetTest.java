package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.ApiException;
import dev.gq.protocol.LineReader;
import java.io.ByteArrayInputStream;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Large request lines share one memory pool: beyond it a connection waits, then is refused with one line. */
@Timeout(30)
class FrameBudgetTest {
  private static final int MIB = 1 << 20;
  private static final int MAX = 16 * MIB;

  private static ReadableByteChannel lineOf(int bytes) {
    byte[] b = new byte[bytes + 1];
    Arrays.fill(b, (byte) 'x');
    b[bytes] = '\n';
    return Channels.newChannel(new ByteArrayInputStream(b));
  }

  @Test
  void aLargeLineBeyondWhatOthersLeaveIsRefusedWithOneLineAndTheShareComesBackAfterwards() throws Exception {
    FrameBudget budget = new FrameBudget(3 * MIB, MIB, 100);
    FrameBudget.Lease first = budget.lease();
    assertEquals(2 * MIB, new LineReader(lineOf(2 * MIB), MAX, first).readLine().length());
    try (FrameBudget.Lease second = budget.lease()) {
      var e = assertThrows(FrameBudget.Busy.class, () -> new LineReader(lineOf(2 * MIB), MAX, second).readLine());
      assertEquals("the daemon is busy reading other large requests (at most 3 MiB at once); send this one again"
          + " in a moment", e.getMessage());
    }
    first.close();
    assertEquals(3 * MIB, budget.available(), "a closed lease gives its whole share back");
    try (FrameBudget.Lease third = budget.lease()) {
      assertEquals(2 * MIB, new LineReader(lineOf(2 * MIB), MAX, third).readLine().length());
    }
    assertEquals(3 * MIB, budget.available());
  }

  @Test
  void smallLinesAreNeverChargedSoOrdinaryRequestsNeverWait() throws Exception {
    FrameBudget budget = new FrameBudget(2 * MIB, MIB, 100);
    FrameBudget.Lease big = budget.lease();
    new LineReader(lineOf(2 * MIB), MAX, big).readLine();
    assertEquals(0, budget.available());
    for (int i = 0; i < 20; i++)
      try (FrameBudget.Lease small = budget.lease()) {
        assertEquals(MIB / 2, new LineReader(lineOf(MIB / 2), MAX, small).readLine().length());
      }
    big.close();
  }

  @Test
  void twelveConcurrentFifteenMibLinesTakeTurnsWithinThePool() throws Exception {
    FrameBudget budget = new FrameBudget(16 * MIB, MIB, 20_000);
    CompletableFuture<?>[] all = new CompletableFuture<?>[12];
    int[] peakHeld = {0};
    for (int i = 0; i < all.length; i++) {
      all[i] = CompletableFuture.runAsync(() -> {
        try (FrameBudget.Lease lease = budget.lease()) {
          String line = new LineReader(lineOf(15 * MIB), MAX, lease).readLine();
          synchronized (peakHeld) {
            peakHeld[0] = Math.max(peakHeld[0], 16 * MIB - budget.available());
          }
          assertEquals(15 * MIB, line.length());
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      });
    }
    CompletableFuture.allOf(all).get(25, TimeUnit.SECONDS);
    assertEquals(16 * MIB, budget.available());
    assertEquals(16 * MIB, peakHeld[0], "one 15 MiB line (in a 16 MiB buffer) at a time: the others waited");
  }

  @Test
  void thePoolIsAQuarterOfTheHeapAndHoldsAtLeastOneLongestLine() {
    assertEquals(40 * MIB, FrameBudget.poolFor(160L * MIB));
    assertEquals(256 * MIB, FrameBudget.poolFor(1024L * MIB));
    assertEquals(16 * MIB, FrameBudget.poolFor(32L * MIB));
  }

  @Test
  void aListingTheSharedBudgetHasNoRoomForIsRefusedWithOneLineAndARequestKeepsWhatItWasGranted() throws Exception {
    FrameBudget budget = new FrameBudget(8 * MIB, MIB, 100);
    try (FrameBudget.Lease other = budget.lease(); FrameBudget.Lease mine = budget.lease()) {
      AnswerCharges.bind(mine);
      AnswerCharges.rows(3000, 10);
      assertEquals(8 * MIB - 3000 * AnswerCharges.ROW_BYTES, budget.available());
      AnswerCharges.rows(2000, 10);
      assertEquals(8 * MIB - 3000 * AnswerCharges.ROW_BYTES, budget.available(), "a smaller listing is within what it holds");
      assertTrue(other.hold(budget.available(), 10));
      var e = assertThrows(ApiException.class, () -> AnswerCharges.rows(4000, 10));
      assertEquals("the daemon is busy answering other large requests (at most 8 MiB at once) and cannot list 4000 jobs now;"
          + " ask again in a moment, or list fewer (--limit, --state)", e.getMessage());
    } finally {
      AnswerCharges.unbind();
    }
    assertEquals(8 * MIB, budget.available(), "closed leases give everything back");
  }

  @Test
  void aPlotIsChargedEveryRowItKeepsAndOneLargerThanTheWholeBudgetIsRefusedInOneLine() throws Exception {
    FrameBudget budget = new FrameBudget(8 * MIB, MIB, 100);
    try (FrameBudget.Lease other = budget.lease(); FrameBudget.Lease mine = budget.lease()) {
      AnswerCharges.bind(mine);
      var e = assertThrows(ApiException.class, () -> AnswerCharges.plotRows(9000, 10));
      assertEquals("cannot plot 9000 jobs and GPU spans at once: they need about 9 MiB, more than the daemon keeps for large"
          + " answers (8 MiB, a quarter of its heap); plot a shorter period (--since, --until) or one group (--group), or give the"
          + " daemon more (GQ_DAEMON_HEAP)", e.getMessage());
      assertEquals(8 * MIB, budget.available(), "a refused plot holds nothing");
      AnswerCharges.plotRows(3000, 10);
      assertEquals(8 * MIB - 3000 * AnswerCharges.ROW_BYTES, budget.available());
      assertTrue(other.hold(budget.available(), 10));
      var busy = assertThrows(ApiException.class, () -> AnswerCharges.plotRows(4000, 10));
      assertEquals("the daemon is busy answering other large requests (at most 8 MiB at once) and cannot hold the 4000 jobs and"
          + " GPU spans of this plot now; ask again in a moment", busy.getMessage());
    } finally {
      AnswerCharges.unbind();
    }
    assertEquals(8 * MIB, budget.available(), "closed leases give everything back");
  }
}
