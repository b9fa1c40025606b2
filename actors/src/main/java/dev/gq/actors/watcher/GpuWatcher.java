package dev.gq.actors.watcher;

import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessTable;
import java.time.Duration;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * Reads the GPUs on a fixed interval, and at once when asked (a job ended), on the blocking
 * executor: the probe's reading plus the /proc facts (session, group, GQ_JOB_TAG) of every PID it
 * lists and the GPUs' machine-wide leases. Reports each observation to the Scheduler with the moment it was begun; it never decides
 * anything. At most one reading is in flight; a request during one is served right after it, so a
 * request is always answered by a reading begun after it.
 */
public final class GpuWatcher {
  public sealed interface Command {}
  public record PollNow() implements Command {}
  private record Tick() implements Command {}
  private record Done(GpuObservation observation, long takenNanos) implements Command {}

  private GpuWatcher() {}

  public static Behavior<Command> create(java.util.function.Supplier<GpuObservation> observe, GpuProbe probe,
      ActorRef<Scheduler.Command> scheduler, Duration interval, Executor blocking) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(new Tick(), interval);
      boolean[] inFlight = {false};
      boolean[] again = {false};
      Runnable start = () -> {
        inFlight[0] = true;
        // taken from here on: a reading asked for after a job's end is a reading after it
        long taken = System.nanoTime();
        ctx.pipeToSelf(CompletableFuture.supplyAsync(observe, blocking),
            (obs, err) -> new Done(obs != null ? obs : new GpuObservation(
                GpuReading.failed(java.time.Instant.now(), "GPU reading crashed: " + err), Map.of()), taken));
      };
      start.run();
      return Behaviors.receive(Command.class)
          .onMessage(Tick.class, m -> poll(inFlight, again, start))
          .onMessage(PollNow.class, m -> poll(inFlight, again, start))
          .onMessage(Done.class, m -> {
            scheduler.tell(new Scheduler.GpusObserved(m.observation(), probe.describe(), probe.fake(), m.takenNanos()));
            inFlight[0] = false;
            if (again[0]) {
              again[0] = false;
              start.run();
            }
            return Behaviors.same();
          })
          .build();
    }));
  }

  private static Behavior<Command> poll(boolean[] inFlight, boolean[] again, Runnable start) {
    if (inFlight[0]) again[0] = true;
    else start.run();
    return Behaviors.same();
  }

  /**
   * One reading, the facts of every PID it lists, and the machine-wide lease of every GPU it lists,
   * read after the reading (a job that took a lease and opened its context between the two shows
   * by its lease). Blocks.
   */
  public static GpuObservation observe(GpuProbe probe, ProcessTable procs, GpuLeases leases, LeaseHolder.Instance self) {
    GpuObservation o = observe(probe, procs);
    if (!o.reading().ok()) return new GpuObservation(o.reading(), o.facts(), Map.of(), self);
    List<String> uuids = o.reading().devices().stream().map(DeviceReading::uuid).toList();
    return new GpuObservation(o.reading(), o.facts(), leases.read(uuids), self);
  }

  /** One reading and the facts of every PID it lists (leases not checked). Blocks. */
  public static GpuObservation observe(GpuProbe probe, ProcessTable procs) {
    GpuReading r = probe.read();
    Map<Long, ProcessFacts> facts = new HashMap<>();
    for (DeviceReading d : r.devices())
      for (DeviceReading.GpuProcess p : d.processes()) {
        if (facts.containsKey(p.pid())) continue;
        Optional<ProcInfo> info = procs.info(p.pid());
        if (info.isEmpty() || info.get().zombie()) continue;
        String tag = procs.environ(p.pid(), "GQ_JOB_TAG").orElse(null);
        facts.put(p.pid(), new ProcessFacts(p.pid(), info.get().sid(), info.get().pgid(), tag));
      }
    return new GpuObservation(r, facts);
  }
}
