package dev.gq.core.ledger;

import static dev.gq.core.Fixtures.T0;
import static dev.gq.core.Fixtures.leader;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A ledger driven the way the Scheduler drives it, for the sweep rules: every step's events go
 * through {@link Consequences} and are applied, and {@link #last} keeps what the step wrote.
 */
final class Driver {
  Ledger ledger = Ledger.empty();
  FailFast rule = FailFast.DEFAULT;
  Instant now = T0;
  int gpus = 4;
  int maxLive = SubmitContext.MAX_LIVE_JOBS;
  final Map<Long, LineageFact> facts = new HashMap<>();
  List<LedgerEvent> last = List.of();
  final List<LedgerEvent> written = new java.util.ArrayList<>();

  SubmitContext intake() {
    return new SubmitContext(now, () -> "tag-" + ledger.nextId(), id -> "/logs/" + id + ".log", gpus, null, facts, maxLive);
  }

  long submit(JobSpec s) {
    Decision<Ledger.SubmitOutcome> d = Submissions.one(ledger, s, intake());
    assertFalse(d.refused(), d.refusal());
    settle(d.events());
    return d.result().jobId();
  }

  String refusal(JobSpec s) {
    Decision<Ledger.SubmitOutcome> d = Submissions.one(ledger, s, intake());
    return d.refusal();
  }

  void start(long id) {
    settle(List.of(new JobReserved(id, List.of(), now)));
    settle(List.of(new JobLaunched(id, leader(100 * id), now)));
  }

  /** Starts the job, lets {@code ran} pass, and records its exit. */
  List<LedgerEvent> run(long id, int code, Duration ran) {
    start(id);
    now = now.plus(ran);
    return exit(id, code);
  }

  List<LedgerEvent> exit(long id, int code) {
    return settle(List.of(new JobExited(id, code, null, now)));
  }

  List<LedgerEvent> settle(List<LedgerEvent> events) {
    return settle(events, false);
  }

  List<LedgerEvent> settle(List<LedgerEvent> events, boolean byRecovery) {
    last = Consequences.of(ledger, events, rule, byRecovery, intake());
    for (LedgerEvent e : last) ledger = ledger.apply(e);
    written.addAll(last);
    return last;
  }

  /** The job's state: live, or among the recent endings. */
  JobState state(long id) {
    var j = ledger.live().get(id);
    return j != null ? j.state() : ledger.recentEnd(id);
  }

  /** The ledger rebuilt from every event written so far, as a restart would. */
  Ledger replayed() {
    Ledger l = Ledger.empty();
    for (LedgerEvent e : written) l = l.apply(e);
    return l;
  }

  /** Why job {@code id} may not start now, whole; null when nothing blocks it. */
  String blocked(long id) {
    var reason = ledger.blocked().get(id);
    return reason == null ? null : reason.text();
  }

  <T extends LedgerEvent> List<T> lastOf(Class<T> type) {
    return last.stream().filter(type::isInstance).map(type::cast).toList();
  }
}
