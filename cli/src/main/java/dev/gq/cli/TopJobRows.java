package dev.gq.cli;

import static dev.gq.cli.ScreenText.CLOCK;
import static dev.gq.cli.ScreenText.DIM;
import static dev.gq.cli.ScreenText.SELECTED;
import static dev.gq.cli.ScreenText.cutWords;
import static dev.gq.cli.ScreenText.pad;
import static dev.gq.cli.ScreenText.padLeft;

import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.ApiReplies.StoredEvent;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.WaitReason;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * The job, group and event rows of {@code gq top}: one line a job (state, GPUs, elapsed time,
 * progress, group, and its name or why it waits, with the idle hint), the selected one marked; a
 * line a group with its counts; the newest events in local time. Pure: {@link TopScreen} decides
 * how many of them fit.
 */
final class TopJobRows {
  private TopJobRows() {}

  static String jobHeader(int width) {
    return pad("ID", 6) + pad("STATE", 11) + pad("GPUS", 6) + padLeft("ELAPSED", 8) + "  " + pad("PROGRESS", 15)
        + (width >= 100 ? pad("GROUP", 16) : pad("GROUP", 9)) + "NAME / WHY";
  }

  static List<AttributedString> jobLines(TopData d, TopView v, List<Job> shown, int rows, int width, boolean fixed) {
    List<AttributedString> out = new ArrayList<>();
    if (shown.isEmpty()) {
      if (rows > 0) out.add(new AttributedString(v.filter().isEmpty()
          ? "  no jobs yet; submit one with 'gq run -g 1 CMD'" : "  no job matches the filter '" + v.filter() + "' (f to change it)", DIM));
      return out;
    }
    int[] w = window(shown, v, rows, fixed);
    v.page(Math.max(1, w[1] - w[0] - 1));
    if (w[0] > 0) out.add(new AttributedString("  ↑ " + w[0] + " more (Page Up)", DIM));
    for (int i = w[0]; i < w[1]; i++) {
      Job j = shown.get(i);
      String text = jobText(d, j, width);
      boolean isSel = fixed && v.selected() != null && j.id() == v.selected();
      if (isSel) out.add(new AttributedString(pad(text, width), SELECTED));
      else out.add(new AttributedString(text, jobStyle(j)));
    }
    if (w[1] < shown.size()) out.add(new AttributedString("  ↓ " + (shown.size() - w[1]) + " more (Page Down)", DIM));
    return out;
  }

  /** Which of the {@code shown} jobs the list's rows show, as [start, end): around the selected one on a screen, all of them as text. */
  static int[] window(List<Job> shown, TopView v, int rows, boolean fixed) {
    if (!fixed) return new int[] {0, shown.size()};
    return window(shown.size(), Math.max(0, v.selectedIndex(shown)), rows);
  }

  /**
   * Which of {@code size} jobs {@code rows} lines show, as [start, end), with the selected one
   * ({@code sel}) among them: from the top (the live jobs) while the selection is there, and a line
   * that counts the jobs hidden above, and one for those below, when some are.
   */
  static int[] window(int size, int sel, int rows) {
    if (size <= rows) return new int[] {0, size};
    if (rows < 3) {
      int start = Math.max(0, Math.min(sel, size - rows));
      return new int[] {start, start + rows};
    }
    if (sel < rows - 1) return new int[] {0, rows - 1};
    if (sel >= size - (rows - 1)) return new int[] {size - (rows - 1), size};
    int start = sel - (rows - 2) / 2;
    return new int[] {start, start + rows - 2};
  }

  /** Job {@code listed}'s row, from its whole record when it was read whole. */
  static String jobText(TopData d, Job listed, int width) {
    Job j = d.whole(listed);
    String state = JobTable.state(j, d.heldGroups());
    String progress = JobColumn.progress(j, d.progress());
    String why = "";
    if (j.state() == JobState.WAITING) {
      WaitReason w = d.waits().get(j.id());
      if (w != null && !w.brief().isBlank()) why = "  (" + w.brief() + ")";
    } else if (j.state().terminal() && j.exitCode() != null && j.exitCode() != 0) why = "  (exit " + j.exitCode() + ")";
    else {
      String note = d.hints().note(j);
      if (!note.isEmpty()) why = "  (" + note + ")";
    }
    int groupWidth = width >= 100 ? 16 : 9;
    String group = j.spec().group() == null ? "-" : TextTable.cutMiddle(j.spec().group(), groupWidth - 1);
    String head = pad(String.valueOf(j.id()), 6) + pad(state, 11) + pad(JobColumn.gpus(j), 6)
        + padLeft(JobColumn.elapsed(j, d.now()), 8) + "  " + pad(cutWords(progress, 14), 15) + pad(group, groupWidth);
    return head + nameAndWhy(JobColumn.name(j), why, width - columns(head));
  }

  /** The name, then why the job waits or how it ended: the name is cut first, so that the reason and its numbers show. */
  static String nameAndWhy(String name, String why, int room) {
    String n = PrintableText.escape(name);
    if (columns(n) + columns(why) <= room) return n + why;
    n = cutWords(name, Math.max(Math.min(columns(n), 8), room - columns(why)));
    return n + cutWords(why, Math.max(0, room - columns(n)));
  }

  private static int columns(String s) {
    return ScreenText.columns(s);
  }

  private static AttributedStyle jobStyle(Job j) {
    return switch (j.state()) {
      case RUNNING, STARTING -> AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
      case FAILED, TIMEOUT, INTERRUPTED, ORPHANED -> AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
      case WAITING -> AttributedStyle.DEFAULT;
      default -> DIM;
    };
  }

  static List<AttributedString> groupRows(TopData d, int width) {
    List<AttributedString> rows = new ArrayList<>();
    int barWidth = width >= 120 ? 30 : 12;
    for (GroupSummary g : d.groups()) {
      int[] e = GroupText.ended(g);
      if (e[1] == 0) continue;
      int running = 0;
      for (Map.Entry<JobState, Integer> c : g.counts().entrySet())
        if (!c.getKey().terminal() && c.getKey() != JobState.WAITING) running += c.getValue();
      int failed = g.counts().getOrDefault(JobState.FAILED, 0);
      StringBuilder sb = new StringBuilder("group ").append(pad(TextTable.cutMiddle(g.group(), 16), 17));
      sb.append(GroupText.bar(e[0], e[1], barWidth)).append("  ");
      // the hold first: a narrow screen cuts the counts, not the reason nothing starts
      if (g.held()) sb.append(g.automatic() ? "HELD (fail-fast)  " : "HELD  ");
      sb.append(running).append(" running, ").append(g.counts().getOrDefault(JobState.WAITING, 0)).append(" waiting");
      if (failed > 0) sb.append(", ").append(failed).append(" failed");
      rows.add(new AttributedString(sb.toString(), failed > 0 ? AttributedStyle.DEFAULT.foreground(AttributedStyle.RED)
          : AttributedStyle.DEFAULT));
    }
    return rows;
  }

  static List<AttributedString> eventRows(TopData d, int width) {
    List<AttributedString> rows = new ArrayList<>();
    for (StoredEvent e : d.events()) rows.add(new AttributedString(eventText(d, e), DIM));
    return rows;
  }

  /** "12:30:01 JobLaunched job 4": the newest events, in local time, one line each. */
  static String eventText(TopData d, StoredEvent e) {
    StringBuilder sb = new StringBuilder(CLOCK.format(e.time().atZone(d.zone()))).append(' ').append(pad(e.type(), 20));
    if (e.jobId() != null) sb.append("job ").append(e.jobId());
    String control = ControlEvents.text(e, d.gpus().gpus(), d.jobs());
    if (control != null) return sb.append(control).toString();
    Object reason = e.fields().get("reason");
    if (reason == null) reason = e.fields().get("group");
    if (reason instanceof String s && !s.isBlank()) sb.append("  ").append(PrintableText.escape(s));
    return sb.toString();
  }
}
