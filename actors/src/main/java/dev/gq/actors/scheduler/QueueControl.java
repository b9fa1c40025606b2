package dev.gq.actors.scheduler;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.LedgerEvent.*;
import dev.gq.core.ledger.SpecRules;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/** Pausing and resuming the queue or one group: the events, and the line to show the user. */
final class QueueControl {
  private QueueControl() {}

  static Decision<String> pause(Ledger l, String group, Instant now) {
    if (group != null) {
      String bad = SpecRules.label("group", group);
      if (bad != null) return Decision.refuse(bad + "; name the group to hold, as 'gq ps' shows it");
      if (l.holds().containsKey(group)) return Decision.accept(List.of(), "Group " + group + " was already held.");
      return Decision.accept(List.<LedgerEvent>of(new GroupHeld(group, "held by the user", false, now)),
          "Group " + group + " is held; its waiting jobs will not start until 'gq daemon resume --group " + group + "'.");
    }
    if (l.paused()) return Decision.accept(List.of(), "The queue was already paused.");
    String running = l.live().values().stream().filter(j -> j.state() != JobState.WAITING)
        .map(Job::id).map(String::valueOf).collect(Collectors.joining(", "));
    return Decision.accept(List.<LedgerEvent>of(new QueuePaused(now)),
        "Queue paused; waiting jobs will not start until 'gq daemon resume'."
            + (running.isEmpty() ? "" : " Still running: " + running + "."));
  }

  static Decision<String> resume(Ledger l, String group, Instant now) {
    if (group != null) {
      String bad = SpecRules.label("group", group);
      if (bad != null) return Decision.refuse(bad + "; name the held group, as 'gq groups' shows it");
      if (!l.holds().containsKey(group)) return Decision.accept(List.of(), "Group " + group + " was not held.");
      return Decision.accept(List.<LedgerEvent>of(new GroupReleased(group, now)), "Released the hold on group " + group + ".");
    }
    if (!l.paused()) return Decision.accept(List.of(), "The queue was not paused.");
    return Decision.accept(List.<LedgerEvent>of(new QueueResumed(now)), "Queue resumed.");
  }
}
