package dev.gq.core.adopt;

import static dev.gq.core.Fixtures.*;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuReading;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.schedule.Decided;
import dev.gq.core.schedule.DecisionContext;
import dev.gq.core.schedule.Decider;
import dev.gq.core.schedule.Request;
import dev.gq.core.schedule.SchedulerState;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The Scheduler's decision function with a ledger and a GPU registry, for the adoption tests. */
final class AdoptWorld {
  static final long UID = 1000;
  /** The hand-started run: pid 4242, started at tick 777, child of the user's shell (pid 4000). */
  static final ProcInfo RUN = new ProcInfo(4242, 4000, 4000, 3900, 777, 'S', "python");
  static final ProcessRef RUN_REF = ProcessRef.of(RUN);
  static final ProcessRef SHELL = new ProcessRef(4000, 500);

  Ledger l = Ledger.empty();
  SchedulerState s = SchedulerState.initial();
  long nanos = 100;

  <R> Decided<R> decide(Request<R> r) {
    var c = new DecisionContext(T0, nanos++, () -> "tag-new", id -> "/logs/" + id + ".log", FailFast.DEFAULT,
        Duration.ofMinutes(5), 64);
    Decided<R> d = Decider.decide(l, s, r, c);
    for (LedgerEvent e : d.events()) l = l.apply(e);
    s = d.next();
    return d;
  }

  void ready() {
    decide(new Request.Reconciled(Map.of(), 0));
  }

  /** A reading of {@code devices} taken now, with the facts given (absent PIDs: not visible). */
  Decided<Void> read(Map<Long, ProcessFacts> facts, DeviceReading... devices) {
    var obs = new GpuObservation(new GpuReading(T0, List.of(devices), null), facts);
    return decide(new Request.Observed(obs, "fake", true, nanos++));
  }

  /** Facts of a process whose parents lead back to the run: {@code pid}, then each ancestor. */
  static ProcessFacts under(long pid, ProcessRef... ancestors) {
    List<ProcessRef> lineage = new java.util.ArrayList<>();
    lineage.add(new ProcessRef(pid, 900 + pid));
    lineage.addAll(List.of(ancestors));
    return new ProcessFacts(pid, 3900, 4000, null, lineage);
  }

  /** The run's own facts. */
  static ProcessFacts runFacts() {
    return new ProcessFacts(RUN.pid(), RUN.sid(), RUN.pgid(), null, List.of(RUN_REF, SHELL));
  }

  static Map<Long, ProcessFacts> facts(ProcessFacts... fs) {
    Map<Long, ProcessFacts> m = new HashMap<>();
    for (ProcessFacts f : fs) m.put(f.pid(), f);
    return m;
  }

  /** The run as /proc shows it to the caller. */
  static Candidate candidate() {
    return new Candidate(RUN.pid(), RUN, UID, UID, List.of("python", "train.py", "--lr", "3e-4"), "/home/u/exp",
        "/home/u/exp/out.log", T0.minusSeconds(3600), BOOT, null, List.of(RUN_REF, SHELL), List.of(new ProcessRef(77, 1)));
  }

  static Request.Adopt adopt(Candidate c) {
    return new Request.Adopt(new Adoption.AdoptAsk(c, null, null, null));
  }
}
