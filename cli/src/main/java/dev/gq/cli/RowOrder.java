package dev.gq.cli;

import dev.gq.core.job.Job;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.Suggestions;
import dev.gq.core.job.QueueOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The row orders of {@code gq ps --sort}: ID, newest first (the default); QUEUE, the waiting jobs in
 * the order they get GPUs (the next to start at the top), then the others newest first; PRIORITY,
 * highest first, then in queue order.
 */
enum RowOrder {
  ID, QUEUE, PRIORITY;

  static RowOrder parse(String word) {
    for (RowOrder o : values()) if (o.name().equalsIgnoreCase(word.strip())) return o;
    List<String> names = Arrays.stream(values()).map(o -> o.name().toLowerCase(Locale.ROOT)).toList();
    List<String> close = Suggestions.closest(word, names);
    throw new UsageException("unknown order '" + PrintableText.escape(word) + "' for --sort; "
        + (close.isEmpty() ? "use " + String.join(", ", names) : "did you mean " + String.join(" or ", close) + "?"));
  }

  /** {@code jobs} (newest first) in this order. */
  List<Job> sorted(List<Job> jobs) {
    Comparator<Job> newest = Comparator.comparingLong(Job::id).reversed();
    return switch (this) {
      case ID -> jobs;
      case QUEUE -> {
        List<Job> out = new ArrayList<>(QueueOrder.sorted(jobs));
        jobs.stream().filter(j -> !QueueOrder.queued(j)).sorted(newest).forEach(out::add);
        yield out;
      }
      case PRIORITY -> jobs.stream().sorted(Comparator.comparingInt((Job j) -> -j.spec().priority())
          .thenComparing(j -> QueueOrder.queued(j) ? 0 : 1).thenComparing(QueueOrder.ORDER)).toList();
    };
  }

  /** The names --sort takes, for completion. */
  static final class Names implements Iterable<String> {
    @Override public Iterator<String> iterator() {
      return Arrays.stream(values()).map(o -> o.name().toLowerCase(Locale.ROOT)).iterator();
    }
  }
}
