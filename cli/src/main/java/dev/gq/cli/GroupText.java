package dev.gq.cli;

import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The words shared by {@code gq groups}, {@code gq ps --group} and {@code gq wait --group}: a
 * group's one-line summary ("sweep: 3 DONE, 1 RUNNING, 2 WAITING (plus 1 earlier attempt, since
 * retried)"), the notice for a held group with what to do about it, and a progress bar.
 */
final class GroupText {
  private GroupText() {}

  /** Counts by state name over latest attempts, WAITING shown as HELD in a held group, states sorted by name. */
  static String summary(GroupSummary g) {
    Map<String, Integer> byName = new TreeMap<>();
    g.counts().forEach((state, n) -> {
      if (n > 0) byName.merge(state == JobState.WAITING && g.held() ? "HELD" : state.name(), n, Integer::sum);
    });
    List<String> parts = new ArrayList<>();
    byName.forEach((name, n) -> parts.add(n + " " + name));
    String text = PrintableText.escape(g.group()) + ": " + (parts.isEmpty() ? "no jobs" : String.join(", ", parts));
    if (g.retried() > 0) text += " (plus " + g.retried() + " earlier " + (g.retried() == 1 ? "attempt" : "attempts") + ", since retried)";
    return text;
  }

  /** Two lines on stderr: why the group is held, and how to go on. */
  static void holdNotice(PrintWriter err, GroupSummary g) {
    String group = PrintableText.escape(g.group());
    err.println("gq: group " + group + " is held: " + PrintableText.escape(g.holdReason()));
    if (g.automatic()) {
      err.println("    fix the cause, then 'gq retry --group " + group + " --failed', or release it as is with 'gq release --group "
          + group + "'");
    } else {
      err.println("    release it with 'gq release --group " + group + "'");
    }
  }

  /** Jobs of the group's latest attempts that have ended, and all of them. */
  static int[] ended(GroupSummary g) {
    int ended = 0, total = 0;
    for (Map.Entry<JobState, Integer> e : g.counts().entrySet()) {
      total += e.getValue();
      if (e.getKey().terminal()) ended += e.getValue();
    }
    return new int[] {ended, total};
  }

  /** "[########............] 8/20": {@code done} of {@code total} in a bar {@code width} characters wide inside the brackets. */
  static String bar(int done, int total, int width) {
    int filled = total <= 0 ? 0 : (int) ((long) done * width / total);
    return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + done + "/" + total;
  }
}
