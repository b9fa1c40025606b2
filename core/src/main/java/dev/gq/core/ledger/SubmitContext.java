package dev.gq.core.ledger;

import dev.gq.core.gpu.DeviceReading;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * What a decision that creates jobs needs from outside the ledger: the time, a fresh GQ_JOB_TAG per
 * job, where each job's log goes, how many GPUs are visible (-1 before the first good reading, with
 * {@code gpuError} saying why), the history's facts about ended jobs the request names, and the most
 * live jobs the daemon holds (a submit beyond it is refused), and the devices of the last good reading
 * (a job that asks of each GPU more memory or another type than they have is refused).
 */
public record SubmitContext(
    Instant now,
    Supplier<String> tags,
    LongFunction<String> logPaths,
    int gpuCount,
    String gpuError,
    Map<Long, LineageFact> facts,
    int maxLive,
    List<DeviceReading> devices) {
  /**
   * The most live jobs (waiting, starting, running) the daemon holds: a submit that would exceed it
   * is refused. 100,000 waiting jobs take about 30 MiB of the daemon's heap (bench/memory.sh).
   */
  public static final int MAX_LIVE_JOBS = 200_000;


  public SubmitContext {
    facts = facts == null ? Map.of() : Map.copyOf(facts);
    devices = devices == null ? List.of() : List.copyOf(devices);
  }

  /** Without the devices of the last good reading: no job is refused for the memory or type it asks of a GPU. */
  public SubmitContext(Instant now, Supplier<String> tags, LongFunction<String> logPaths, int gpuCount, String gpuError,
      Map<Long, LineageFact> facts, int maxLive) {
    this(now, tags, logPaths, gpuCount, gpuError, facts, maxLive, List.of());
  }

  /** What a decision needs, with gq's limit of {@link #MAX_LIVE_JOBS} live jobs. */
  public SubmitContext(Instant now, Supplier<String> tags, LongFunction<String> logPaths, int gpuCount, String gpuError,
      Map<Long, LineageFact> facts) {
    this(now, tags, logPaths, gpuCount, gpuError, facts, MAX_LIVE_JOBS, List.of());
  }
}
