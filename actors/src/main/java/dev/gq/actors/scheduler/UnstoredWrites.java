package dev.gq.actors.scheduler;

import dev.gq.core.schedule.SchedulerState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The Scheduler's write under way and what a failure of it leaves to do. The Scheduler writes one
 * decision at a time; when the journal refuses it, the actor restarts (its runners keep running),
 * its ledger is replayed without the decision, and then: the request that waited is refused, the
 * Scheduler's memory goes back to what it was before the decision, and each runner's report among
 * the unstored ones (a launch, a job's end: facts that happened and are not sent twice) is decided
 * again, until the journal takes it.
 */
final class UnstoredWrites {
  private SchedulerState before;
  private Consumer<String> waiting;
  private Scheduler.Command report;
  private final List<Scheduler.Command> retry = new ArrayList<>();

  /**
   * A write begins; {@code before}: the Scheduler's memory before its decision; {@code waiting}: refuses
   * the request that waits for it (null: none); {@code report}: the runner's report it stores (null: none).
   */
  void writing(SchedulerState before, Consumer<String> waiting, Scheduler.Command report) {
    this.before = before;
    this.waiting = waiting;
    this.report = report;
  }

  /** The write is stored. */
  void stored() {
    before = null;
    waiting = null;
    report = null;
  }

  /** Whether a write was under way (so it failed, when the actor restarts). */
  boolean failed() {
    return before != null;
  }

  /**
   * Ends the failed write: refuses its request with {@code refusal}, keeps its report for a retry,
   * and returns the memory to go back to.
   */
  SchedulerState fail(String refusal) {
    SchedulerState back = before;
    if (waiting != null) waiting.accept(refusal);
    if (report != null) retry.add(report);
    stored();
    return back;
  }


  /** The jobs whose end waits to be stored: no other pass may decide how they ended meanwhile. */
  java.util.Set<Long> endsWaiting() {
    java.util.Set<Long> ids = new java.util.HashSet<>();
    for (Scheduler.Command c : retry) if (c instanceof Scheduler.Ended e) ids.add(e.jobId());
    if (report instanceof Scheduler.Ended e) ids.add(e.jobId());
    return ids;
  }

  /** The reports to decide again, oldest first; forgotten here until they fail again. */
  List<Scheduler.Command> takeRetries() {
    List<Scheduler.Command> all = List.copyOf(retry);
    retry.clear();
    return all;
  }
}
