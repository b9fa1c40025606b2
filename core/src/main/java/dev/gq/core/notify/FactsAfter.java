package dev.gq.core.notify;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The facts right after an event, read from a history that may have taken later events since:
 * each read is made with the history held still, and what the events after the one decided did
 * ({@link Ahead}) is taken back from it. So the answers depend on the events alone, never on how
 * far the history had got when it was read. A history that has not yet taken the event decided
 * cannot say what followed it: IllegalStateException, and the event is decided again later. Pure.
 */
public final class FactsAfter implements NoticeFacts {
  private final HistoryView view;

  public FactsAfter(HistoryView view) {
    this.view = view;
  }

  @Override
  public Optional<JobFacts> job(long id) {
    return view.job(id);
  }

  @Override
  public long liveJobs(long seq) {
    return view.still(at -> ahead(seq, at).liveBefore(view.live()));
  }

  @Override
  public Optional<GroupFacts> group(String group, long seq) {
    return view.still(at -> {
      Ahead a = ahead(seq, at);
      List<Long> endedAfter = a.ended().stream().filter(a::stored).toList();
      return view.group(group, a.firstStarted())
          .map(g -> Ahead.before(g, endedAfter.isEmpty() ? List.of() : view.states(group, endedAfter)));
    });
  }

  @Override
  public GroupFacts times(GroupFacts counted, long seq) {
    return view.still(at -> view.times(counted, ahead(seq, at).firstStarted()));
  }

  @Override
  public boolean endsWrite(long seq) {
    return view.endsWrite(seq);
  }

  @Override
  public Duration failFastWithin() {
    return view.failFastWithin();
  }

  private Ahead ahead(long seq, long at) {
    if (at < seq) throw new IllegalStateException("the job history is at event " + at + ", behind event " + seq + " being decided");
    return at == seq ? Ahead.NONE : view.ahead(seq, at);
  }
}
