package dev.gq.actors.watcher;

import dev.gq.core.schedule.Request;

import dev.gq.actors.health.Beat;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuProbe;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.proc.ProcessTree;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Reads the GPUs on a fixed interval, and at once when asked (a job ended), on the blocking
 * executor: the probe's reading plus the /proc facts (session, group, GQ_JOB_TAG) of every PID it
 * lists and the GPUs' machine-wide leases. Reports each observation to the Scheduler with the moment it was begun; it never decides
 * anything. At most one reading is in flight; a request during one is served right after it, so a
 * request is always answered by a reading begun after it.
 */
public final class GpuWatcher extends AbstractBehavior<GpuWatcher.Command> {
  public sealed interface Command {}
  public record PollNow() implements Command {}
  private record Tick() implements Command {}
  private record Done(GpuObservation observation, long takenNanos) implements Command {}

  private final Supplier<GpuObservation> observe;
  private final GpuProbe probe;
  private final ActorRef<Scheduler.Command> scheduler;
  private final Executor blocking;
  private final Clock clock;
  private final Beat beat;
  private boolean inFlight;
  /** A request came during the reading in flight: read again right after it. */
  private boolean again;

  private GpuWatcher(ActorContext<Command> ctx, Supplier<GpuObservation> observe, GpuProbe probe,
      ActorRef<Scheduler.Command> scheduler, Executor blocking, Clock clock, Beat beat) {
    super(ctx);
    this.beat = beat;
    this.observe = observe;
    this.probe = probe;
    this.scheduler = scheduler;
    this.blocking = blocking;
    this.clock = clock;
  }

  public static Behavior<Command> create(Supplier<GpuObservation> observe, GpuProbe probe,
      ActorRef<Scheduler.Command> scheduler, Duration interval, Executor blocking, Clock clock) {
    return create(observe, probe, scheduler, interval, blocking, clock, Beat.NONE);
  }

  /** The same, telling {@code beat} of each reading handed to the Scheduler. */
  public static Behavior<Command> create(Supplier<GpuObservation> observe, GpuProbe probe,
      ActorRef<Scheduler.Command> scheduler, Duration interval, Executor blocking, Clock clock, Beat beat) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(timers -> {
      timers.startTimerWithFixedDelay(new Tick(), interval);
      GpuWatcher w = new GpuWatcher(ctx, observe, probe, scheduler, blocking, clock, beat);
      w.start();
      return w;
    }));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Tick.class, m -> poll())
        .onMessage(PollNow.class, m -> poll())
        .onMessage(Done.class, this::onDone)
        .build();
  }

  private void start() {
    inFlight = true;
    // taken from here on: a reading asked for after a job's end is a reading after it
    long taken = System.nanoTime();
    getContext().pipeToSelf(CompletableFuture.supplyAsync(observe, blocking),
        (obs, err) -> new Done(obs != null ? obs : new GpuObservation(
            GpuReading.failed(clock.instant(), "GPU reading crashed: " + err), Map.of()), taken));
  }

  private Behavior<Command> poll() {
    if (inFlight) again = true;
    else start();
    return this;
  }

  private Behavior<Command> onDone(Done m) {
    scheduler.tell(new Scheduler.Report(new Request.Observed(m.observation(), probe.describe(), probe.fake(), m.takenNanos())));
    beat.worked();
    inFlight = false;
    if (again) {
      again = false;
      start();
    }
    return this;
  }

  /**
   * One reading, the facts of every PID it lists, and the machine-wide lease of every GPU it lists,
   * read after the reading (a job that took a lease and opened its context between the two shows
   * by its lease). Blocks.
   */
  public static GpuObservation observe(GpuProbe probe, ProcessTable procs, GpuLeases leases, LeaseHolder.Instance self) {
    return observe(probe, procs, leases, self, null);
  }

  /**
   * As above; on each GPU whose lease is shared, the lease files (in {@code leaseDir}) each of its
   * processes holds open are read too, which tells another gq's shared job from an outside process.
   */
  public static GpuObservation observe(GpuProbe probe, ProcessTable procs, GpuLeases leases, LeaseHolder.Instance self,
      Path leaseDir) {
    GpuObservation o = observe(probe, procs);
    if (!o.reading().ok()) return new GpuObservation(o.reading(), o.facts(), Map.of(), self);
    List<String> uuids = o.reading().devices().stream().map(DeviceReading::uuid).toList();
    Map<String, GpuLease> read = leases.read(uuids);
    if (leaseDir == null) return new GpuObservation(o.reading(), o.facts(), read, self);
    Map<Long, ProcessFacts> facts = new HashMap<>(o.facts());
    for (DeviceReading d : o.reading().devices()) {
      GpuLease l = read.get(d.uuid());
      if (l == null || l.state() != GpuLease.State.SHARED) continue;
      for (DeviceReading.GpuProcess p : d.processes()) {
        ProcessFacts f = facts.get(p.pid());
        if (f == null) continue;
        List<String> open = procs.openFiles(p.pid());
        // every live process has some file open: none listed means /proc would not show them (another user's)
        facts.put(p.pid(), open.isEmpty() ? f.hidden(procs.uid(p.pid())) : f.withLeases(leaseFiles(open, leaseDir)));
      }
    }
    return new GpuObservation(o.reading(), facts, read, self);
  }

  /** The GPUs (UUIDs) whose lease files in {@code leaseDir} are among {@code open}, a process's open files (/proc/PID/fd). */
  static Set<String> leaseFiles(List<String> open, Path leaseDir) {
    Path dir;
    try {
      dir = leaseDir.toRealPath();
    } catch (IOException | RuntimeException e) {
      dir = leaseDir.toAbsolutePath();
    }
    Set<String> out = new HashSet<>();
    for (String f : open) {
      Path file = Path.of(f);
      String name = file.getFileName() == null ? "" : file.getFileName().toString();
      if (name.endsWith(".lease") && dir.equals(file.getParent())) out.add(name.substring(0, name.length() - ".lease".length()));
    }
    return out;
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
        // a process carrying no tag may be an adopted job's, known by its parents
        var lineage = tag != null ? List.<ProcessRef>of()
            : ProcessTree.lineage(info.get(), procs::info);
        facts.put(p.pid(), new ProcessFacts(p.pid(), info.get().sid(), info.get().pgid(), tag, lineage));
      }
    return new GpuObservation(r, facts);
  }
}
