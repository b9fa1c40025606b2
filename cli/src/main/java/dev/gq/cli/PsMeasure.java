package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.Job;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One pass over a listing ({@link JobPages}) that picks its columns and measures them, keeping no
 * row: the columns --format named, else the default ones any row asks for; each column's widest
 * cell ({@link JobTable.Widths}); whether a live row runs on a Slurm cluster. A list that holds
 * every queued job counts how many wait at each priority ({@link QueuePlaces}), so that POS is as
 * wide as the last place and the places of each printed page are counted, not asked; a list that
 * does not asks the daemon for each page's places, in a second pass when POS is shown
 * ({@link #withPlaces}). Off a terminal the last column is never cut or padded, so it is not measured.
 */
final class PsMeasure {
  private final PsContext extras;
  /** The columns --format named; null: the default ones. */
  private final List<JobColumn> columns;
  private final boolean oneGroup;
  private final int width;
  /** The places counted over the whole list; null when they are asked per page, or not at all. */
  private final QueuePlaces counted;
  private final boolean asked;
  private final Set<JobColumn> chosen = EnumSet.noneOf(JobColumn.class);
  private final JobTable.Widths widths = new JobTable.Widths();
  private boolean clustered;
  private long rows;

  private PsMeasure(PsContext extras, List<JobColumn> columns, boolean oneGroup, int width, boolean whole, boolean asked) {
    this.extras = extras;
    this.columns = columns;
    this.oneGroup = oneGroup;
    this.width = width;
    this.counted = whole ? new QueuePlaces() : null;
    this.asked = asked;
  }

  /**
   * Measures {@code list} at {@code width} (0: not a terminal); {@code whole}: it holds every queued
   * job, so that their places are counted.
   */
  static PsMeasure over(JobPages list, PsContext extras, List<JobColumn> columns, boolean oneGroup, int width, boolean whole)
      throws ApiException {
    PsMeasure m = new PsMeasure(extras, columns, oneGroup, width, whole, false);
    list.each(m::add);
    return m;
  }

  /** Measures {@code list} again with each page's places asked of the daemon. */
  static PsMeasure withPlaces(JobPages list, PsContext extras, List<JobColumn> columns, boolean oneGroup, int width)
      throws ApiException {
    PsMeasure m = new PsMeasure(extras, columns, oneGroup, width, false, true);
    list.each(m::add);
    return m;
  }

  private void add(List<Job> page) throws ApiException {
    JobTableContext ctx = extras.page(page, asked ? extras.positions(page) : Map.of());
    if (counted != null) page.forEach(counted::count);
    widths.measure(page, candidates(), ctx, width > 0);
    if (columns == null) chosen.addAll(JobColumn.defaults(page, false, oneGroup, ctx.progress(), ctx.notes()));
    clustered |= PsContext.clustered(page);
    rows += page.size();
  }

  /** The columns to measure: every one the table may show, but the last one off a terminal. */
  private List<JobColumn> candidates() {
    List<JobColumn> all = new ArrayList<>(columns != null ? columns : List.of(JobColumn.values()));
    JobColumn last = columns != null ? columns.get(columns.size() - 1) : JobColumn.COMMAND;
    if (width <= 0 && all.indexOf(last) == all.lastIndexOf(last)) all.remove(last);
    return all;
  }

  /** The columns shown. */
  List<JobColumn> columns() {
    return columns != null ? columns : List.copyOf(chosen);
  }

  /** The widest cell of each column, POS as wide as the last place when the places were counted. */
  JobTable.Widths widths() {
    if (counted != null) widths.widen(JobColumn.POS, String.valueOf(counted.total()).length());
    return widths;
  }

  /** Whether POS is shown and the places were neither counted nor asked: the list is to be measured {@link #withPlaces}. */
  boolean positioned() {
    return counted == null && !asked && columns().contains(JobColumn.POS);
  }

  boolean clustered() {
    return clustered;
  }

  /** How many rows the list had. */
  long rows() {
    return rows;
  }

  /** The places in the queue of {@code page}'s queued jobs, the next page printed; none when POS is not shown. */
  Map<Long, Integer> places(List<Job> page) throws ApiException {
    if (!columns().contains(JobColumn.POS)) return Map.of();
    if (counted != null) return counted.places(page);
    return asked ? extras.positions(page) : Map.of();
  }
}
