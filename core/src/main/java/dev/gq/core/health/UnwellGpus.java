package dev.gq.core.health;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuHealth;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The GPUs a new reading shows unwell, drained with the reason ({@link Unwell}) in the same write as
 * the reservations that follow, so the allocation never hands one out. A GPU already drained with the
 * same reason is not drained again. A job running on it keeps running. Pure.
 */
public final class UnwellGpus {
  private UnwellGpus() {}

  /** The drains {@code now} calls for, against {@code before} (null: no earlier reading). */
  public static List<LedgerEvent> drains(Ledger l, GpuReading before, GpuReading now, Instant at) {
    if (now == null || !now.ok()) return List.of();
    Map<String, GpuHealth> was = new HashMap<>();
    if (before != null) before.devices().forEach(d -> was.put(d.uuid(), d.health()));
    List<LedgerEvent> out = new ArrayList<>();
    for (DeviceReading d : now.devices()) {
      String problem = Unwell.arisen(was.get(d.uuid()), d.health());
      if (problem == null) continue;
      String reason = Unwell.PREFIX + problem;
      if (reason.equals(l.settings().drained().get(d.uuid()))) continue;
      out.add(new LedgerEvent.GpuDrained(d.uuid(), reason, at));
    }
    return out;
  }
}
