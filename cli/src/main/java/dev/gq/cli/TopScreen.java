package dev.gq.cli;

import static dev.gq.cli.ScreenText.ASK;
import static dev.gq.cli.ScreenText.CLOCK;
import static dev.gq.cli.ScreenText.DIM;
import static dev.gq.cli.ScreenText.HEAD;
import static dev.gq.cli.ScreenText.TITLE;
import static dev.gq.cli.ScreenText.bar;
import static dev.gq.cli.ScreenText.cutWords;
import static dev.gq.cli.ScreenText.fit;
import static dev.gq.cli.ScreenText.plain;
import static dev.gq.cli.TopGpuRows.gpuHeader;
import static dev.gq.cli.TopGpuRows.gpuRow;
import static dev.gq.cli.TopGpuRows.noteRows;
import static dev.gq.cli.TopGpuRows.processRows;
import static dev.gq.cli.TopJobRows.eventRows;
import static dev.gq.cli.TopJobRows.groupRows;
import static dev.gq.cli.TopJobRows.jobHeader;
import static dev.gq.cli.TopJobRows.jobLines;
import static dev.gq.cli.TopPages.helpScreen;
import static dev.gq.cli.TopPages.logScreen;
import static dev.gq.cli.TopUserRows.userRows;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * Draws one screen of {@code gq top} from what the daemon knows at one moment ({@link TopData}) and where
 * the user is ({@link TopView}): a title line, the GPUs (state, holder, figures, a sparkline of
 * utilisation, a note under a shared, drained or unwell one, the processes on each under the job
 * that owns them), the jobs (with the idle hint), the groups, the newest events at the bottom and a
 * line of keys; on a shared machine (others holding or waiting, a policy or a booking in force) a
 * line per user under the GPUs with their GPUs held and jobs running and waiting, and a line of
 * the policy and bookings. Pure: the same data, view and size give the same lines, each at most {@code width}
 * columns wide, exactly {@code height} of them ({@code height} 0: as many as the content needs, for
 * one frame printed as text). What a small screen gives up first is {@link TopLayout}'s to say.
 */
final class TopScreen {
  private TopScreen() {}

  /** The jobs the list shows, in its order: live jobs (running first, then by id), then ended ones, newest end first. */
  static List<Job> shown(TopData d, TopView v) {
    return listing(d, v).jobs();
  }

  /** The list with its counts, worked out once for each list of jobs read, held groups and filter. */
  static TopListing.Listed listing(TopData d, TopView v) {
    return v.listing().of(d.jobs(), d.heldGroups(), v.filter(), () -> listed(d, v));
  }

  private static TopListing.Listed listed(TopData d, TopView v) {
    List<Job> live = new ArrayList<>();
    List<Job> waiting = new ArrayList<>();
    List<Job> ended = new ArrayList<>();
    int running = 0, waits = 0;
    for (Job j : d.jobs()) {
      if (j.state() == JobState.WAITING) waits++;
      else if (!j.state().terminal()) running++;
      if (!v.shows(j, d.heldGroups())) continue;
      (j.state().terminal() ? ended : j.state() == JobState.WAITING ? waiting : live).add(j);
    }
    // each part by id: a long queue comes in id order already, which the sort only checks
    live.sort((a, b) -> Long.compare(a.id(), b.id()));
    waiting.sort((a, b) -> Long.compare(a.id(), b.id()));
    ended.sort((a, b) -> {
      Instant ea = a.endTime() == null ? Instant.EPOCH : a.endTime();
      Instant eb = b.endTime() == null ? Instant.EPOCH : b.endTime();
      return eb.compareTo(ea) != 0 ? eb.compareTo(ea) : Long.compare(b.id(), a.id());
    });
    int liveShown = live.size() + waiting.size();
    live.addAll(waiting);
    live.addAll(ended);
    return new TopListing.Listed(live, liveShown, running, waits);
  }

  /**
   * The jobs whose rows this screen draws, in order: what {@link TopReads} reads whole
   * (and why they wait) before the screen is drawn. None on the log and help pages.
   */
  static List<Job> drawn(TopData d, TopView v, int width, int height) {
    if (v.mode() == TopView.Mode.LOG || v.mode() == TopView.Mode.HELP) return List.of();
    List<Job> shown = shown(d, v);
    v.settle(shown);
    int[] w = TopJobRows.window(shown, v, parts(d, v, width, height).room().jobs(), height > 0);
    return shown.subList(w[0], w[1]);
  }

  static List<AttributedString> render(TopData d, TopView v, int width, int height) {
    List<AttributedString> out = switch (v.mode()) {
      case LOG -> logScreen(d, v, width, height);
      case HELP -> helpScreen(d, v, width, height);
      default -> mainScreen(d, v, width, height);
    };
    List<AttributedString> fitted = new ArrayList<>(out.size());
    for (AttributedString l : out) fitted.add(fit(l, width));
    return fitted;
  }

  // ---------------------------------------------------------------- the main screen

  /** The parts of the main screen besides the jobs, and the lines each gets. */
  private record Parts(List<List<AttributedString>> gpuRows, List<List<AttributedString>> procRows,
      List<AttributedString> groups, List<AttributedString> events, List<AttributedString> users, TopLayout room) {}

  private static Parts parts(TopData d, TopView v, int width, int height) {
    // each GPU's row with its notes (shares, a drain, the problem of an unwell GPU): kept on any screen
    List<List<AttributedString>> gpuRows = new ArrayList<>();
    List<List<AttributedString>> procRows = new ArrayList<>();
    gpuRows.add(List.of(bar(gpuHeader(width), width, HEAD)));
    for (GpuStatus g : d.gpus().gpus()) {
      List<AttributedString> block = new ArrayList<>();
      block.add(gpuRow(d, g, width));
      block.addAll(noteRows(d, g));
      gpuRows.add(block);
      procRows.add(processRows(d, g, width));
    }
    if (d.gpus().gpus().isEmpty())
      gpuRows.add(List.of(plain(d.gpus().error() != null ? "  GPU probe failed: " + d.gpus().error() : "  no GPUs; jobs with -g 0 still run")));
    int gpuLines = gpuRows.stream().mapToInt(List::size).sum();
    List<AttributedString> groups = groupRows(d, width);
    List<AttributedString> events = eventRows(d, width);
    List<AttributedString> users = userRows(d);
    int procs = procRows.stream().mapToInt(List::size).sum();
    TopListing.Listed listed = listing(d, v);
    TopLayout room = TopLayout.of(height, gpuLines,
        new TopLayout.Counts(listed.jobs().size(), listed.live(), users.size(), groups.size(), events.size(), procs));
    return new Parts(gpuRows, procRows, groups, events, users, room);
  }

  private static List<AttributedString> mainScreen(TopData d, TopView v, int width, int height) {
    List<Job> shown = shown(d, v);
    v.settle(shown);
    Parts p = parts(d, v, width, height);
    int procShown = p.room().processes();
    int groupShown = p.room().groups();
    int eventShown = p.room().events();

    List<AttributedString> lines = new ArrayList<>();
    lines.add(bar(title(d, v, shown, width), width, TITLE));
    lines.addAll(p.gpuRows().get(0));
    for (int i = 1; i < p.gpuRows().size(); i++) {
      lines.addAll(p.gpuRows().get(i));
      if (i - 1 < p.procRows().size()) {
        for (AttributedString r : p.procRows().get(i - 1)) {
          if (procShown-- <= 0) break;
          lines.add(r);
        }
      }
    }
    lines.addAll(p.users().subList(0, p.room().users()));
    lines.add(bar(jobHeader(width), width, HEAD));
    lines.addAll(jobLines(d, v, shown, p.room().jobs(), width, height > 0));
    if (height > 0) {
      while (lines.size() < height - 1 - groupShown - eventShown) lines.add(AttributedString.EMPTY);
    }
    lines.addAll(p.groups().subList(0, groupShown));
    lines.addAll(p.events().subList(p.events().size() - eventShown, p.events().size()));
    if (height > 0) lines.add(footer(v, width));
    return lines;
  }

  /** The title: the counts, a held queue and the filter whole; "(fake GPUs)" goes first when it does not fit. */
  private static String title(TopData d, TopView v, List<Job> shown, int width) {
    int free = 0;
    for (GpuStatus g : d.gpus().gpus()) if (g.state() == GpuState.FREE) free++;
    TopListing.Listed listed = listing(d, v);
    int running = listed.running(), waiting = listed.waiting();
    StringBuilder sb = new StringBuilder(" gq top  ").append(CLOCK.format(d.now().atZone(d.zone())));
    sb.append("  ").append(d.gpus().gpus().size()).append(" GPUs, ").append(free).append(" free");
    sb.append("  ").append(running).append(" running, ").append(waiting).append(" waiting");
    if (d.queueHeld()) sb.append("  QUEUE HELD");
    String count = " (" + shown.size() + ")";
    if (!v.filter().isEmpty()) {
      int room = width - sb.length() - "  filter: ".length() - count.length();
      sb.append("  filter: ").append(cutWords(v.filter(), Math.max(4, room))).append(count);
    }
    String fake = "  (fake GPUs)";
    if (d.gpus().fake() && sb.length() + fake.length() <= width) sb.append(fake);
    return sb.toString();
  }

  private static AttributedString footer(TopView v, int width) {
    return switch (v.mode()) {
      case CONFIRM -> new AttributedString(v.question(), ASK);
      case FILTER -> new AttributedString("filter by group or state (e.g. running, failed, held, live; empty: all): "
          + v.typing() + "_", ASK);
      default -> v.message() != null ? new AttributedString(v.message(), AttributedStyle.BOLD)
          : new AttributedString(width >= 100
              ? "↑↓/jk move  Enter/l log  c cancel  h hold  r release  p preempt  f filter  ? help  q quit"
              : "↑↓ move  ⏎ log  c/h/r/p cancel/hold/release/preempt  f filter  ? help  q quit", DIM);
    };
  }
}
