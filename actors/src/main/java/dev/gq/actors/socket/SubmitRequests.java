package dev.gq.actors.socket;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.BatchLine;
import dev.gq.api.ApiReplies.BatchOutcome;
import dev.gq.api.ApiReplies.ResumeReport;
import dev.gq.api.ApiReplies.RetryReport;
import dev.gq.api.ApiReplies.SubmitResult;
import dev.gq.actors.scheduler.Scheduler;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.BatchParts;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.schedule.Preemptions;
import dev.gq.core.schedule.Request;
import dev.gq.protocol.DiskRoom;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The requests that add jobs to the queue: submit, batch submit, retry, resume, recover, and
 * preempt (which queues the preempted jobs again). Refuses new jobs while the data directory's disk
 * is full; gathers from the history what the Scheduler decides them on ({@link SweepRequests}) and
 * asks it.
 */
final class SubmitRequests {
  private final SchedulerAsks asks;
  private final SweepRequests sweeps;
  private final Path dataDir;

  SubmitRequests(SchedulerAsks asks, SweepRequests sweeps, Path dataDir) {
    this.asks = asks;
    this.sweeps = sweeps;
    this.dataDir = dataDir;
  }

  SubmitResult submit(JobSpec spec, Integer maxRunning) throws ApiException {
    requireRoom("the job");
    var facts = spec.after().isEmpty() ? Map.<Long, LineageFact>of() : facts(SweepRequests.dependencies(List.of(spec)));
    Ledger.SubmitOutcome o = asks.ask(new Request.Submit(spec, facts, maxRunning));
    return new SubmitResult(o.jobId(), o.skipped(), o.state(), o.message(), o.queueing());
  }

  /**
   * Queues a batch of any length in parts of at most one write each ({@link BatchParts}); a part
   * refused after others were stored says which lines are queued. Answers once the history has the
   * whole batch: a script queueing batch after batch must not outrun the history, whose backlog of
   * events would otherwise pile up in memory. A part is asked for while the history takes the one
   * before, but not before it has the one before that, so at most one part waits for it.
   */
  List<BatchOutcome> submitBatch(List<BatchLine> lines, String group, Integer maxRunning) throws ApiException {
    List<BatchOutcome> out = new ArrayList<>(lines.size());
    long stored = 0; // the last event of the part before
    for (int part = 0; part < BatchParts.count(lines.size()); part++) {
      int start = BatchParts.start(part);
      try {
        out.addAll(part(lines.subList(start, BatchParts.end(part, lines.size())), group, maxRunning));
      } catch (ApiException e) {
        if (part == 0) throw e;
        historyAtLeast(stored);
        throw new ApiException(BatchParts.partlyQueued(e.getMessage(), lines.get(start).line(), lines.get(start - 1).line(), start));
      }
      // no view: a view plans every waiting job again
      long now = asks.askPlain(Scheduler.GetSeqNr::new);
      asks.caughtUp(stored);
      stored = now;
    }
    asks.caughtUp(stored);
    return out;
  }

  /** Waits until the history has the parts stored before a refused one (which are queued and stay so); gives up quietly. */
  private void historyAtLeast(long seq) {
    try {
      asks.caughtUp(seq);
    } catch (ApiException e) {
      // the refusal is the answer; the history catches up by itself
    }
  }

  private List<BatchOutcome> part(List<BatchLine> lines, String group, Integer maxRunning) throws ApiException {
    requireRoom("the jobs");
    // each line read once: a long batch's lines may be parsed as they are read
    List<JobSpec> specs = new ArrayList<>(lines.size());
    List<Integer> numbers = new ArrayList<>(lines.size());
    for (BatchLine l : lines) {
      specs.add(l.spec());
      numbers.add(l.line());
    }
    Set<Long> deps = SweepRequests.dependencies(specs);
    var facts = deps.isEmpty() ? Map.<Long, LineageFact>of() : facts(deps);
    List<Ledger.SubmitOutcome> os = asks.ask(new Request.SubmitBatch(specs, numbers, facts, group, maxRunning));
    return SweepRequests.outcomes(numbers, os);
  }

  RetryReport retry(List<Long> ids, Set<JobState> states, String group) throws ApiException {
    Request.Retry r = retryFacts(ids, states == null ? Set.of() : Set.copyOf(states), group);
    return SweepRequests.report(asks.ask(r));
  }

  List<String> preempt(Preemptions.PreemptAsk ask) throws ApiException {
    return asks.ask(new Request.Preempt(ask));
  }

  ResumeReport resume(List<Long> ids, String from) throws ApiException {
    Request.Retry r = retryFacts(ids, Set.of(), null);
    var resume = new Request.ResumeJobs(r.ids(), r.found(), r.cwdGone(), from, r.facts());
    RetryReport report = SweepRequests.report(asks.ask(resume));
    return SweepRequests.resumed(report, r.found(), from);
  }

  RetryReport recover() throws ApiException {
    asks.synced();
    try {
      // each resumes from its newest checkpoint, if it left one
      Request.Retry r = sweeps.retry(asks.synced().ledger(), sweeps.interrupted(), Set.of(JobState.INTERRUPTED), null);
      return SweepRequests.report(asks.ask(new Request.ResumeJobs(r.ids(), r.found(), r.cwdGone(), null, r.facts())));
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  private Request.Retry retryFacts(List<Long> ids, Set<JobState> states, String group) throws ApiException {
    try {
      return sweeps.retry(asks.synced().ledger(), ids, states, group);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  private void requireRoom(String what) throws ApiException {
    String full = DiskRoom.fullNote(dataDir);
    if (full != null) throw new ApiException("cannot accept " + what + ": " + full + "; free some space and submit again");
  }

  /**
   * What the history says about {@code ids}, once it has every event of the Scheduler's view now:
   * a job live then that ends before the decision is found there too.
   */
  private Map<Long, LineageFact> facts(Set<Long> ids) throws ApiException {
    asks.synced();
    try {
      return sweeps.facts(ids);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }
}
