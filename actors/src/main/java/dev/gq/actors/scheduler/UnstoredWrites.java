package dev.gq.actors.scheduler;

import dev.gq.core.schedule.Request;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.pattern.StatusReply;
import org.slf4j.Logger;

/**
 * The Scheduler's write under way and what a failure of it leaves to do. The Scheduler writes one
 * batch at a time; when the journal refuses it, the actor restarts (its runners keep running), its
 * ledger is replayed without the batch, and then: each request that waited is refused, and each
 * runner's report among the unstored ones (a launch, a job's end: facts that happened and are not
 * sent twice) is decided again, until the journal takes it.
 */
final class UnstoredWrites {
  private List<SchedulerProtocol.Command> writing;
  private final List<SchedulerProtocol.Command> retry = new ArrayList<>();

  /** A write begins with the decisions of {@code batch} (requests and reports, in arrival order). */
  void writing(List<SchedulerProtocol.Command> batch) {
    this.writing = List.copyOf(batch);
  }

  /** The write is stored; after failures, the journal takes writes again, and the daemon hears so. */
  void stored(SchedulerEffects effects, Logger log) {
    writing = null;
    if (JournalWrites.problem() == null) return;
    JournalWrites.stored();
    log.info("the journal takes writes again");
    effects.journalWritable();
  }

  /**
   * Ends the failed write: each request it held is refused with one line naming the cause, each
   * runner's report it held waits to be decided again, and a job's end that waits to be stored gets
   * the disk's reserve.
   */
  void fail(SchedulerSettings settings, SchedulerEffects effects, Logger log) {
    JournalWrites.failed(null);
    String problem = JournalWrites.problem();
    fail(JournalWrites.refusal(settings.journal(), effects.diskFullNote(), problem));
    log.error("cannot write the journal ({}): {}; the daemon retries", settings.journal(), problem);
    if (!endsWaiting().isEmpty()) effects.giveUpReserve();
  }

  /** Whether a write was under way (so it failed, when the actor restarts). */
  boolean failed() {
    return writing != null;
  }

  /** Refuses each of the failed write's requests with {@code refusal} and keeps its runners' reports for a retry. */
  private void fail(String refusal) {
    for (SchedulerProtocol.Command c : writing) {
      if (c instanceof SchedulerProtocol.Ask<?> ask) refuse(ask.replyTo(), refusal);
      else if (fact(c)) retry.add(c);
    }
    writing = null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void refuse(ActorRef replyTo, String refusal) {
    replyTo.tell(StatusReply.error(refusal));
  }

  /** A runner's report: something that happened, told once. */
  private static boolean fact(SchedulerProtocol.Command c) {
    return c instanceof SchedulerProtocol.Report r && (r.fact() instanceof Request.Launched || r.fact() instanceof Request.LaunchFailed
        || r.fact() instanceof Request.LaunchDeferred || r.fact() instanceof Request.Ended);
  }

  private static Long ended(SchedulerProtocol.Command c) {
    return c instanceof SchedulerProtocol.Report r && r.fact() instanceof Request.Ended e ? e.jobId() : null;
  }

  /** The jobs whose end waits to be stored: no other pass may decide how they ended meanwhile. */
  Set<Long> endsWaiting() {
    Set<Long> ids = new HashSet<>();
    for (SchedulerProtocol.Command c : retry) if (ended(c) != null) ids.add(ended(c));
    if (writing != null) for (SchedulerProtocol.Command c : writing) if (ended(c) != null) ids.add(ended(c));
    return ids;
  }

  /** The reports to decide again, oldest first; forgotten here until they fail again. */
  List<SchedulerProtocol.Command> takeRetries() {
    List<SchedulerProtocol.Command> all = List.copyOf(retry);
    retry.clear();
    return all;
  }
}
