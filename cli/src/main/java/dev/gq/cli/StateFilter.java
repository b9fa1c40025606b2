package dev.gq.cli;

import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.Suggestions;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The states {@code gq ps --state} takes: names in any case, comma-separated or repeated
 * ({@code --state RUNNING,WAITING}), and squeue's short forms ({@code -t R,PD}: PD waiting, R
 * running, CG cancelling, CD done, F failed, CA cancelled, TO timeout, PR preempted). A misspelt
 * name is a usage error with the closest names; HELD, which is how a waiting job of a held group
 * shows, names WAITING.
 */
final class StateFilter {
  private StateFilter() {}

  /** squeue's short state names, by what they mean in gq. */
  static final Map<String, JobState> SHORT = Map.of("PD", JobState.WAITING, "R", JobState.RUNNING,
      "CG", JobState.CANCELLING, "CD", JobState.DONE, "F", JobState.FAILED, "CA", JobState.CANCELLED,
      "TO", JobState.TIMEOUT, "PR", JobState.PREEMPTED);

  /** Every state the words name; empty for no words. */
  static Set<JobState> parse(List<String> words) {
    Set<JobState> states = EnumSet.noneOf(JobState.class);
    for (String word : words)
      for (String part : word.split(",", -1)) states.add(one(part.trim()));
    return states;
  }

  private static JobState one(String name) {
    String upper = name.toUpperCase(Locale.ROOT);
    if (upper.isEmpty()) throw new UsageException("--state takes state names, e.g. --state RUNNING,WAITING; an empty one was given");
    JobState shortForm = SHORT.get(upper);
    if (shortForm != null) return shortForm;
    for (JobState s : JobState.values()) if (s.name().equals(upper)) return s;
    if (upper.equals("HELD"))
      throw new UsageException("HELD is how a waiting job of a held group or queue shows; use --state WAITING");
    List<String> close = Suggestions.closest(upper, Arrays.stream(JobState.values()).map(Enum::name).toList());
    throw new UsageException("unknown state '" + PrintableText.escape(name) + "'; " + (close.isEmpty()
        ? "states: " + String.join(", ", Arrays.stream(JobState.values()).map(Enum::name).toList())
            + " (or squeue's PD, R, CG, CD, F, CA, TO, PR)"
        : "did you mean " + String.join(" or ", close) + "?"));
  }

  /** The state names, for completion and the help text. */
  static final class Names implements Iterable<String> {
    @Override public Iterator<String> iterator() {
      return Arrays.stream(JobState.values()).map(Enum::name).iterator();
    }
  }
}
