package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.core.job.Job;
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

/**
 * {@code gq ps}'s default list: every live job and the newest ended ones, newest first. The live
 * jobs are read a page at a time and written as they are read ({@link JobPages}), so that a queue
 * of any length costs a page of memory: {@code --json} writes the array element by element; the
 * table is measured over every page first ({@link PsMeasure}: which columns, how wide) and then
 * printed page by page in those widths, the very table one whole list prints. On a terminal
 * ({@link ScreenFit}) the header and the live jobs stay on screen: as many ended jobs as fit are
 * shown, and when the live jobs do not all fit, the busy ones and the newest waiting ones that fit,
 * measured over those rows alone, with a closing line on the waiting jobs left out.
 */
final class PsListing {
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

  /** Writes the list as a JSON array, a page at a time; returns how many jobs it holds. */
  int json() throws ApiException {
    JsonView.ArrayStream array = new JsonView.ArrayStream(inv.io().out());
    int[] shown = {0};
    new JobPages(inv, JobState.live(), group, ended(PsPages.RECENT), unreadable, true).each(page -> {
      Map<Long, WaitReason> waits = extras.reasonsFor(page);
      page.forEach(j -> array.add(j, waits.get(j.id())));
      inv.io().out().flush();
      shown[0] += page.size();
    });
    array.end();
    return shown[0];
  }

  /** Prints the list as a table: measured over every page, then printed page by page; returns how many jobs it holds. */
  int table() throws ApiException {
    Set<String> held = extras.heldWithWaiting(group);
    List<Job> done = ended(PsPages.RECENT + 1);
    ScreenFit fit = fit(held, done.size());
    List<Job> kept = kept(done, fit);
    JobPages list = fit.cut()
        ? new JobPages(inv, busy(), group, fit.waiting() == 0 ? List.of() : newestWaiting((int) fit.waiting()), unreadable, false)
        : new JobPages(inv, JobState.live(), group, kept, unreadable, false);
    int width = TextTable.width(inv.io());
    // every queued job is listed: their places are counted as the list is read, not asked of the daemon
    boolean whole = group == null && !fit.cut();
    PsMeasure measured = PsMeasure.over(list, extras, columns, group != null, width, whole);
    if (measured.rows() == 0) return 0;
    if (group == null) extras.notices(held).forEach(inv.io().err()::println);
    PsMeasure m = measured.positioned() ? PsMeasure.withPlaces(list, extras, columns, group != null, width) : measured;
    if (m.clustered()) extras.sayUnreachable();
    JobTable.Layout layout = new JobTable.Layout(m.columns(), shape == Shape.TABLE, Colour.enabled(inv.io()));
    int[] widths = m.widths().fitted(layout, width);
    boolean telling = m.widths().telling(layout, width);
    boolean[] first = {true};
    list.each(page -> {
      JobTable.print(page, layout, extras.page(page, m.places(page)), inv.io().out(), width, widths, first[0], telling);
      inv.io().out().flush();
      first[0] = false;
    });
    if (fit.cut()) inv.io().out().println(fit.closing());
    return (int) Math.min(Integer.MAX_VALUE, m.rows());
  }

  /** Every job of the list, whole: for an order other than the newest first. */
  List<Job> whole() throws ApiException {
    List<Job> jobs = new ArrayList<>(inv.api().jobPage(new JobQuery(List.of(), JobState.live(), group, 0)).jobs());
    List<Job> done = ended(PsPages.RECENT + 1);
    jobs.addAll(kept(done, fit(extras.heldWithWaiting(group), jobs.size(), done.size())));
    jobs.sort(Comparator.comparingLong(Job::id).reversed());
    return jobs;
  }

  /** The live states but WAITING: the jobs a terminal always shows. */
  private static Set<JobState> busy() {
    Set<JobState> s = EnumSet.copyOf(JobState.live());
    s.remove(JobState.WAITING);
    return s;
  }

  /** What fits the terminal (everything off one), given {@code ended} ended jobs at hand (at most 21). */
  private ScreenFit fit(Set<String> held, int ended) throws ApiException {
    int height = shape == Shape.JSON ? 0 : inv.io().height();
    if (height <= 0) return ScreenFit.of(0, 0, 0, 0, 0, ended, null);
    long busy = inv.api().count(new JobQuery(List.of(), busy(), group, 0));
    long waiting = inv.api().count(new JobQuery(List.of(), EnumSet.of(JobState.WAITING), group, 0));
    return ScreenFit.of(height, inv.io().width(), besides(held), busy, waiting, ended, list());
  }

  /** As above, with {@code live} live jobs already read (their count stands for both kinds). */
  private ScreenFit fit(Set<String> held, long live, int ended) throws ApiException {
    int height = shape == Shape.JSON ? 0 : inv.io().height();
    return ScreenFit.of(height, inv.io().width(), height <= 0 ? 0 : besides(held), live, 0, ended, list());
  }

  /** The command that lists what this one does, whole: for the closing line. */
  private String list() {
    return group == null ? "gq ps" : "gq ps --group " + ShellQuote.quote(group);
  }

  /**
   * The newest of {@code done} (the newest 21 ended jobs) that {@code fit} keeps; says on stderr when
   * ended ones are left out (with how many, when the screen's height cut them) and no waiting one is.
   */
  private List<Job> kept(List<Job> done, ScreenFit fit) throws ApiException {
    if (done.size() <= fit.ended() || fit.cut()) return fit.cut() ? List.of() : done;
    boolean cut = fit.ended() < PsPages.RECENT;
    if (!cut) inv.io().err().println("gq: older ended jobs are not shown; 'gq ps --all' lists them");
    else {
      long more = inv.api().count(new JobQuery(List.of(), JobState.ended(), group, 0)) - fit.ended();
      // one line that fits 80 columns: a line the terminal wraps would push the header off the screen
      inv.io().err().println("gq: " + more + " more ended " + (more == 1 ? "job is" : "jobs are")
          + " not shown; 'gq ps --all' lists them");
    }
    return done.subList(0, fit.ended());
  }

  /** The newest {@code n} ended jobs, newest first. */
  private List<Job> ended(int n) throws ApiException {
    return read(new JobQuery(List.of(), JobState.ended(), group, n));
  }

  /** The newest {@code n} waiting jobs (at most a screen's worth), newest first. */
  private List<Job> newestWaiting(int n) throws ApiException {
    return read(new JobQuery(List.of(), EnumSet.of(JobState.WAITING), group, n));
  }

  private List<Job> read(JobQuery q) throws ApiException {
    var page = inv.api().jobPage(q);
    unreadable.addAll(page.unreadable());
    return page.jobs();
  }

  /**
   * How many lines of the terminal what ps prints besides the table takes, each line as many as the
   * width wraps it to: the notices of the {@code held} groups, or --group's summary and notice.
   */
  private int besides(Set<String> held) throws ApiException {
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
    return text.toString().lines().mapToInt(l -> ScreenFit.lines(l, inv.io().width())).sum();
  }
}
