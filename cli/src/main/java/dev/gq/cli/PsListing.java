package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobPage;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code gq ps}'s default list: every live job and the newest ended ones, newest first. The live
 * jobs are read a page at a time and written as they are read, so that a queue of any length
 * costs a page of memory: {@code --json} writes the array element by element; the table is measured
 * over every page first (which columns, how wide) and then printed page by page in those widths,
 * the very table one whole list prints. On a terminal, as many ended jobs as fit under the header
 * and the live jobs are shown, so that those stay on screen.
 */
final class PsListing {
  /** How many ended jobs, the most recently submitted, {@code gq ps} lists beside the live ones. */
  static final int RECENT = 20;
  /** How many jobs one read of a long list takes. */
  static final int PAGE = 500;
  private final Invocation inv;
  private final PsContext extras;
  private final String group;
  /** The columns --format named; null: the default ones. */
  private final List<JobColumn> columns;
  private final Shape shape;
  private final Set<Long> unreadable;

  /** What is printed: a JSON array, a table with its header, or its rows alone. */
  enum Shape { JSON, TABLE, ROWS }

  PsListing(Invocation inv, PsContext extras, String group, List<JobColumn> columns, Shape shape, Set<Long> unreadable) {
    this.inv = inv;
    this.extras = extras;
    this.group = group;
    this.columns = columns;
    this.shape = shape;
    this.unreadable = unreadable;
  }

  /** What a pass over the list does with each page. */
  private interface PageAction {
    void accept(List<Job> page) throws ApiException;
  }

  /** Writes the list as a JSON array, a page at a time; returns how many jobs it holds. */
  int json() throws ApiException {
    JsonView.ArrayStream array = new JsonView.ArrayStream(inv.io().out());
    int[] shown = {0};
    pages(ended(RECENT), page -> {
      Map<Long, WaitReason> waits = extras.reasonsFor(page);
      page.forEach(j -> array.add(JsonView.job(j, waits.get(j.id()))));
      inv.io().out().flush();
      shown[0] += page.size();
    });
    array.end();
    return shown[0];
  }

  /** Prints the list as a table: measured over every page, then printed page by page; returns how many jobs it holds. */
  int table() throws ApiException {
    Set<String> held = new TreeSet<>();
    long[] live = {0};
    pages(List.of(), page -> {
      live[0] += page.size();
      held.addAll(extras.heldGroups(page));
    });
    List<Job> done = kept(live[0], held);
    if (live[0] + done.size() == 0) return 0;
    if (group == null) extras.notices(held).forEach(inv.io().err()::println);
    Measured m = measure(done, null);
    if (m.positioned()) m = measure(done, extras.positions());
    if (m.clustered()) extras.sayUnreachable();
    JobTable.Layout layout = new JobTable.Layout(m.columns(), shape == Shape.TABLE, Colour.enabled(inv.io()));
    int width = TextTable.width(inv.io());
    int[] widths = m.widths().fitted(layout, width);
    boolean telling = m.widths().telling(layout, width);
    Map<Long, Integer> positions = m.positions();
    boolean[] first = {true};
    pages(done, page -> {
      JobTable.print(page, layout, extras.page(page, positions), inv.io().out(), width, widths, first[0], telling);
      inv.io().out().flush();
      first[0] = false;
    });
    return (int) live[0] + done.size();
  }

  /** Every job of the list, whole: for an order other than the newest first. */
  List<Job> whole() throws ApiException {
    List<Job> jobs = new ArrayList<>(read(new JobQuery(List.of(), JobState.live(), group, 0)).jobs());
    jobs.addAll(kept(jobs.size(), extras.heldGroups(jobs)));
    jobs.sort(Comparator.comparingLong(Job::id).reversed());
    return jobs;
  }

  /** The columns, their widths over every row, and the waiting jobs' places when POS is shown. */
  private record Measured(List<JobColumn> columns, JobTable.Widths widths, Map<Long, Integer> positions,
      boolean positioned, boolean clustered) {}

  /** One pass over the list that picks the columns and measures them ({@code positions} null: not read yet). */
  private Measured measure(List<Job> done, Map<Long, Integer> positions) throws ApiException {
    Set<JobColumn> chosen = EnumSet.noneOf(JobColumn.class);
    List<JobColumn> candidates = columns != null ? columns : List.of(JobColumn.values());
    JobTable.Widths widths = new JobTable.Widths();
    boolean[] clustered = {false};
    pages(done, page -> {
      JobTableContext ctx = extras.page(page, positions == null ? Map.of() : positions);
      widths.measure(page, candidates, ctx);
      if (columns == null) chosen.addAll(JobColumn.defaults(page, false, group != null, ctx.progress(), ctx.notes()));
      clustered[0] |= PsContext.clustered(page);
    });
    List<JobColumn> shown = columns != null ? columns : List.copyOf(chosen);
    boolean positioned = positions == null && shown.contains(JobColumn.POS);
    return new Measured(shown, widths, positions == null ? Map.of() : positions, positioned, clustered[0]);
  }

  /**
   * Calls {@code each} with the list a page at a time, newest first: the live jobs read in pages,
   * {@code ended} (newest first) merged in; stops when the client has gone.
   */
  private void pages(List<Job> ended, PageAction each) throws ApiException {
    JobQuery q = new JobQuery(List.of(), JobState.live(), group, 0);
    JobPage rows = read(q.page(0, PAGE));
    int e = 0;
    while (!inv.io().closed()) {
      List<Job> page = new ArrayList<>(rows.jobs().size());
      for (Job j : rows.jobs()) {
        while (e < ended.size() && ended.get(e).id() > j.id()) page.add(ended.get(e++));
        page.add(j);
      }
      boolean last = rows.rows() < PAGE;
      if (last) page.addAll(ended.subList(e, ended.size()));
      if (!page.isEmpty()) each.accept(page);
      if (last) return;
      rows = read(q.page(rows.lowestId(), PAGE));
    }
  }

  /**
   * The newest ended jobs shown with {@code live} live ones: 20, or on a terminal as many as fit under
   * the header and the live jobs. Says on stderr when ended ones are left out (with how many, when
   * the screen's height cut them).
   */
  private List<Job> kept(long live, Set<String> held) throws ApiException {
    List<Job> done = ended(RECENT + 1);
    int keep = Math.min(RECENT, done.size());
    // the header, the line saying what was left out, the shell's next prompt, and the lines printed
    // besides the table (a held group's notice, the group's summary), as many as the terminal wraps them to
    long room = shape == Shape.JSON || inv.io().height() == 0 ? keep : Math.max(0, inv.io().height() - 3 - besides(held) - live);
    boolean cut = room < keep;
    keep = (int) Math.min(keep, room);
    if (done.size() <= keep) return done;
    if (!cut) inv.io().err().println("gq: older ended jobs are not shown; 'gq ps --all' lists them");
    else {
      long more = inv.api().count(new JobQuery(List.of(), JobState.ended(), group, 0)) - keep;
      // one line that fits 80 columns: a line the terminal wraps would push the header off the screen
      inv.io().err().println("gq: " + more + " more ended " + (more == 1 ? "job is" : "jobs are")
          + " not shown; 'gq ps --all' lists them");
    }
    return done.subList(0, keep);
  }

  /** The newest {@code n} ended jobs, newest first. */
  private List<Job> ended(int n) throws ApiException {
    return read(new JobQuery(List.of(), JobState.ended(), group, n)).jobs();
  }

  /**
   * How many lines of the terminal what ps prints besides the table takes, each line as many as the
   * width wraps it to: the notices of the {@code held} groups, or --group's summary and notice.
   */
  private int besides(Set<String> held) throws ApiException {
    int width = inv.io().width() > 0 ? inv.io().width() : 80;
    StringWriter text = new StringWriter();
    PrintWriter w = new PrintWriter(text);
    if (group != null) {
      Optional<GroupSummary> g = inv.api().group(group);
      if (g.isPresent()) {
        w.println(GroupText.summary(g.get()));
        if (g.get().held()) GroupText.holdNotice(w, g.get());
      }
    } else {
      extras.notices(held).forEach(w::println);
    }
    w.flush();
    return text.toString().lines().mapToInt(l -> Math.max(1, (l.length() + width - 1) / width)).sum();
  }

  private JobPage read(JobQuery q) throws ApiException {
    JobPage page = inv.api().jobPage(q);
    unreadable.addAll(page.unreadable());
    return page;
  }
}
