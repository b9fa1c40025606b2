package dev.gq.cli;

import dev.gq.api.ApiReplies.QueueState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The lines that say a held queue or a held group keeps jobs from starting, each naming the
 * command that lets them start: the note after a submit into them (the jobs are queued all the
 * same) and the lines of {@code gq daemon status}. Pure: text from a {@link QueueState}.
 */
final class QueueNotes {
  private QueueNotes() {}

  /**
   * The note for new jobs (job id → its group, null for none) that the held queue or a held
   * group keeps waiting, naming only those jobs; null when none is kept. E.g. "the queue is
   * held, so job 12 waits until 'gq release --all'".
   */
  static String afterSubmit(QueueState q, Map<Long, String> groupOf) {
    List<String> causes = new ArrayList<>();
    List<String> commands = new ArrayList<>();
    if (q.queueHeld()) {
      causes.add("the queue is held");
      commands.add("'gq release --all'");
    }
    Set<String> held = new TreeSet<>();
    List<Long> kept = new ArrayList<>();
    for (Map.Entry<Long, String> e : groupOf.entrySet()) {
      String g = e.getValue();
      if (g != null && q.holds().containsKey(g)) held.add(g);
      if (q.queueHeld() || (g != null && held.contains(g))) kept.add(e.getKey());
    }
    for (String g : held) {
      causes.add("group " + g + " is held (" + q.holds().get(g) + ")");
      commands.add("'gq release --group " + g + "'");
    }
    if (kept.isEmpty()) return null;
    String what = kept.size() == 1 ? "job " + kept.get(0) + " waits" : "jobs " + JobRanges.format(kept) + " wait";
    return String.join(" and ", causes) + ", so " + what + " until " + String.join(" and ", commands);
  }

  /** The lines of {@code gq daemon status} about the queue's and the groups' holds; none when nothing is held. */
  static List<String> status(QueueState q) {
    List<String> lines = new ArrayList<>();
    if (q.queueHeld()) lines.add("Queue:     held; waiting jobs do not start until 'gq release --all'");
    for (Map.Entry<String, String> h : new TreeMap<>(q.holds()).entrySet()) {
      lines.add("Held:      group " + h.getKey() + " (" + h.getValue() + "); 'gq release --group " + h.getKey()
          + "' releases it");
    }
    return lines;
  }
}
