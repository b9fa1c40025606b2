package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuReading;
import java.util.Map;

/** One GPU reading together with the /proc facts of every PID it lists (absent = not visible in /proc). */
public record GpuObservation(GpuReading reading, Map<Long, ProcessFacts> facts) {
  public GpuObservation {
    facts = Map.copyOf(facts);
  }
}
