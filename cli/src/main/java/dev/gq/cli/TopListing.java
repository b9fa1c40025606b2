package dev.gq.cli;

import dev.gq.core.job.Job;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The jobs {@code gq top}'s list shows, worked out once for each list of jobs read, held groups and
 * filter, however often the screen and its keys ask: with a long queue the list is long, and a
 * screen, a key and the rows read whole each need it. {@link TopView} owns one.
 */
final class TopListing {
  /**
   * The list in its order ({@code jobs}), how many of those are live, and how many of all the jobs
   * read run and wait (the title's counts, whatever the filter).
   */
  record Listed(List<Job> jobs, int live, int running, int waiting) {}

  private Listed listed;
  private List<Job> from;
  private Set<String> held;
  private String filter;

  /** The listing of {@code jobs} under {@code heldGroups} and {@code filter}, as {@code make} works it out when they changed. */
  Listed of(List<Job> jobs, Set<String> heldGroups, String filter, Supplier<Listed> make) {
    if (listed == null || jobs != from || !Objects.equals(heldGroups, held) || !filter.equals(this.filter)) {
      listed = make.get();
      from = jobs;
      held = heldGroups;
      this.filter = filter;
    }
    return listed;
  }
}
