package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.end.EndSeen;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class DecidedBatchTest {
  private static DecisionContext context() {
    AtomicInteger tags = new AtomicInteger();
    return new DecisionContext(T0, 1_000, () -> "tag-" + tags.incrementAndGet(), id -> "/logs/" + id + ".log",
        FailFast.DEFAULT, Duration.ofMinutes(5), 64);
  }

  private static GpuObservation idle(int n) {
    List<DeviceReading> out = new ArrayList<>();
    for (int i = 0; i < n; i++) out.add(device(i));
    return new GpuObservation(new GpuReading(T0, out, null), Map.of());
  }

  /** A ready scheduler that has read {@code gpus} idle GPUs. */
  private static DecidedBatch start(int gpus) {
    return DecidedBatch.decide(Ledger.empty(), SchedulerState.initial(),
        List.of(new Request.Observed(idle(gpus), "fake", true, 1), new Request.Reconciled(Map.of(), 0)), context());
  }

  /** The same requests one by one, as the Scheduler decided them before batches. */
  private static List<Decided<?>> oneByOne(Ledger l, SchedulerState s, List<Request<?>> requests, List<LedgerEvent> events) {
    DecisionContext c = context();
    List<Decided<?>> out = new ArrayList<>();
    for (Request<?> r : requests) {
      Decided<?> d = Decider.decide(l, s, r, c);
      for (LedgerEvent e : d.events()) l = l.apply(e);
      events.addAll(d.events());
      s = d.next();
      out.add(d);
    }
    return out;
  }

  @Test
  void aBatchDecidesExactlyWhatTheSameRequestsDecideOneByOne() {
    DecidedBatch ready = start(2);
    Ledger l = ready.ledger(Ledger.empty());
    List<Request<?>> requests = List.of(new Request.Submit(spec(1)), new Request.Submit(spec(1)), new Request.Submit(spec(3)),
        new Request.Submit(spec(1)), new Request.Launched(1, leader(100)), new Request.Cancel(List.of(4L)),
        new Request.Ended(1, EndSeen.exited(0), 2_000, idle(2), 2_001), new Request.Submit(keyed(1, "k")),
        new Request.Submit(keyed(1, "k")));
    DecidedBatch batch = DecidedBatch.decide(l, ready.next(), requests, context());
    List<LedgerEvent> expected = new ArrayList<>();
    List<Decided<?>> single = oneByOne(l, ready.next(), requests, expected);
    assertEquals(expected, batch.events());
    for (int i = 0; i < requests.size(); i++) {
      assertEquals(single.get(i).events(), batch.decided().get(i).events(), "request " + i);
      assertEquals(single.get(i).refusal(), batch.decided().get(i).refusal(), "request " + i);
      assertEquals(single.get(i).answer(), batch.decided().get(i).answer(), "request " + i);
    }
    assertTrue(batch.decided().get(2).refused(), "3 GPUs on a machine of 2");
    var first = (Ledger.SubmitOutcome) batch.decided().get(7).answer();
    var second = (Ledger.SubmitOutcome) batch.decided().get(8).answer();
    assertFalse(first.skipped());
    assertTrue(second.skipped(), "the second keyed submit finds the job the first made in the same batch");
    assertEquals(first.jobId(), second.jobId());
    Ledger folded = l;
    for (LedgerEvent e : batch.events()) folded = folded.apply(e);
    assertEquals(folded.live().keySet(), batch.ledger(l).live().keySet());
    assertEquals(requests.size(), batch.after().size());
  }

  @Test
  void eachRequestsEffectsSeeTheLedgerAsItsOwnEventsLeftIt() {
    DecidedBatch ready = start(1);
    Ledger l = ready.ledger(Ledger.empty());
    // the job is reserved by the first request and cancelled by the second, in one write
    DecidedBatch batch = DecidedBatch.decide(l, ready.next(),
        List.of(new Request.Submit(spec(1)), new Request.Cancel(List.of(1L))), context());
    assertTrue(batch.decided().get(0).events().stream().anyMatch(e -> e instanceof JobReserved));
    assertNotNull(batch.after().get(0).live().get(1L), "the runner is started on the job as reserved");
    assertFalse(batch.after().get(0).live().get(1L).state().stopping());
    assertTrue(batch.after().get(1).live().get(1L) == null || batch.after().get(1).live().get(1L).state().stopping());
  }

  @Test
  void aBatchOfRefusalsAndAnswersFromMemoryWritesNothing() {
    DecidedBatch ready = start(1);
    Ledger l = ready.ledger(Ledger.empty());
    DecidedBatch batch = DecidedBatch.decide(l, ready.next(),
        List.of(new Request.Submit(spec(4)), new Request.Cancel(List.of(99L)), new Request.Launched(42, leader(1))), context());
    assertTrue(batch.nothingToWrite());
    assertSame(l, batch.ledger(l));
  }

  @Test
  void randomSequencesDecideTheSameInBatchesOfAnySize() {
    Random random = new Random(28);
    for (int round = 0; round < 40; round++) {
      DecidedBatch ready = start(1 + random.nextInt(4));
      Ledger l = ready.ledger(Ledger.empty());
      List<Request<?>> requests = new ArrayList<>();
      long nanos = 2_000;
      for (int i = 0; i < 30; i++) {
        long id = 1 + random.nextInt(10);
        requests.add(switch (random.nextInt(5)) {
          case 0, 1 -> new Request.Submit(spec(random.nextInt(3)));
          case 2 -> new Request.Launched(id, leader(100 + id));
          case 3 -> new Request.Ended(id, EndSeen.exited(random.nextInt(2)), nanos++, idle(4), nanos++);
          default -> new Request.Cancel(List.of(id));
        });
      }
      List<LedgerEvent> expected = new ArrayList<>();
      oneByOne(l, ready.next(), requests, expected);
      // the same requests cut into batches of random sizes, each written before the next
      List<LedgerEvent> batched = new ArrayList<>();
      SchedulerState s = ready.next();
      DecisionContext c = context();
      for (int from = 0; from < requests.size(); ) {
        int to = Math.min(requests.size(), from + 1 + random.nextInt(8));
        DecidedBatch b = DecidedBatch.decide(l, s, requests.subList(from, to), c);
        batched.addAll(b.events());
        l = b.ledger(l);
        s = b.next();
        from = to;
      }
      assertEquals(expected, batched, "round " + round);
    }
  }
}
