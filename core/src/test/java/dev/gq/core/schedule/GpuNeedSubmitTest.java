package dev.gq.core.schedule;

import static dev.gq.core.Fixtures.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A submit is checked against the cards of the last good reading: refused when none could ever hold it. */
class GpuNeedSubmitTest {
  private static final long MIB = 1L << 20;
  private Ledger l = Ledger.empty();
  private SchedulerState s = SchedulerState.initial();
  private long nanos = 100;

  private <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(T0, nanos++, () -> "tag", id -> "/logs/" + id + ".log", FailFast.DEFAULT,
        Duration.ofMinutes(5), 64);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  private void read(DeviceReading... devices) {
    decide(new Request.Observed(new GpuObservation(new GpuReading(T0, List.of(devices), null), Map.of()), "fake", true, nanos++));
  }

  private static JobSpec needing(int gpus, long mib, String... types) {
    return spec(gpus).withGpuNeed(GpuNeed.of(mib, List.of(types)));
  }

  @Test
  void aSubmitNoCardCanHoldIsRefusedAndOneThatFitsIsQueued() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(new DeviceReading(0, uuid(0), "NVIDIA GeForce RTX 4090", 24564 * MIB, 0, List.of(), null),
        new DeviceReading(1, uuid(1), "NVIDIA H100 80GB HBM3", 81559 * MIB, 0, List.of(), null));
    assertEquals("--vram 195.3 GiB: the largest GPU here has 79.6 GiB (GPU 1, NVIDIA H100 80GB HBM3); ask for at most --vram 79.6GiB",
        decide(new Request.Submit(needing(1, 200_000))).refusal());
    assertTrue(decide(new Request.Submit(needing(1, 0, "A100"))).refusal().startsWith("--gpu-type A100: no GPU here is A100"));
    assertTrue(decide(new Request.Submit(needing(2, 38147))).refusal().startsWith("-g 2 --vram 37.3 GiB: only 1 GPU here fits"));
    var batch = decide(new Request.SubmitBatch(List.of(spec(1), needing(1, 0, "A100")), List.of(1, 2), Map.of()));
    assertTrue(batch.refusal().startsWith("line 2: --gpu-type A100"), batch.refusal());
    assertNull(decide(new Request.Submit(needing(1, 38147, "h100"))).refusal());
  }

  @Test
  void aNewGpuCountIsCheckedAgainstTheCardsThatFitAsASubmitIs() {
    decide(new Request.Reconciled(Map.of(), 0));
    read(new DeviceReading(0, uuid(0), "NVIDIA GeForce RTX 4090", 24564 * MIB, 0, List.of(), null),
        new DeviceReading(1, uuid(1), "NVIDIA H100 80GB HBM3", 81559 * MIB, 0, List.of(), null));
    decide(new Request.HoldQueue(null));
    assertNull(decide(new Request.Submit(needing(1, 38147))).refusal());
    long id = l.live().keySet().iterator().next();
    var change = new dev.gq.core.ledger.JobChanges.Change(2, null, false, null);
    assertEquals("-g 2 --vram 37.3 GiB: only 1 GPU here fits (GPU 1); ask for at most -g 1",
        decide(new Request.ChangeJob(id, change)).refusal());
    assertTrue(decide(new Request.ChangeJob(id, new dev.gq.core.ledger.JobChanges.Change(0, null, false, null))).refusal()
        .startsWith("--vram and --gpu-type say what each GPU must be, and this job asks for none (-g 0)"));
    assertEquals(1, l.live().get(id).spec().gpus(), "unchanged");
    assertNull(decide(new Request.ChangeJob(id, new dev.gq.core.ledger.JobChanges.Change(1, 5, false, null))).refusal());
  }

  @Test
  void aNeedOnACpuOnlyJobIsRefused() {
    var d = decide(new Request.Submit(needing(0, 1000)));
    assertTrue(d.refusal().startsWith("--vram and --gpu-type say what each GPU must be, and this job asks for none (-g 0)"),
        d.refusal());
  }
}
