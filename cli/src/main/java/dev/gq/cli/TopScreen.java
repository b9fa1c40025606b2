package dev.gq.cli;

import dev.gq.cli.ApiReplies.GpuReport;
import dev.gq.cli.ApiReplies.GroupSummary;
import dev.gq.cli.ApiReplies.ProcessView;
import dev.gq.cli.ApiReplies.StoredEvent;
import dev.gq.core.alloc.Ownership;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Durations;
import dev.gq.core.job.Job;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * Draws one screen of {@code gq top} from what the daemon knows at one moment ({@link Data}) and where
 * the user is ({@link TopView}): a title line, the GPUs (state, holder, figures, a sparkline of
 * utilisation, a note under a shared, drained or unwell one, the processes on each under the job
 * that owns them), the jobs (with the idle hint), the groups, the newest events at the bottom and a
 * line of keys; on a shared machine (others holding or waiting, a policy or a booking in force) a
 * line per user under the GPUs with their GPUs held and jobs running and waiting, and a line of
 * the policy and bookings. Pure: the same data, view and size give the same lines, each at most {@code width}
 * columns wide, exactly {@code height} of them ({@code height} 0: as many as the content needs, for
 * one frame printed as text). Sections give way on a small screen in this order: processes, events
 * and groups beyond the first few, the users' lines, then job rows.
 */
final class TopScreen {
  /** Everything one screen shows, gathered by {@link TopCommand} in one pass. */
  record Data(Instant now, ZoneId zone, GpuReport gpus, Map<String, GpuHistory.Trace> traces,
      Map<Long, ProcessView> processes, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
      Map<Long, Instant> idle, Set<String> heldGroups, boolean queueHeld, List<GroupSummary> groups,
      List<StoredEvent> events, Job logJob, List<String> log, GqApi.WhoReport who) {
    /** A screen without everyone's part of the machine (a daemon that does not say). */
    Data(Instant now, ZoneId zone, GpuReport gpus, Map<String, GpuHistory.Trace> traces,
        Map<Long, ProcessView> processes, List<Job> jobs, Map<Long, WaitReason> waits, Map<Long, Estimate> progress,
        Map<Long, Instant> idle, Set<String> heldGroups, boolean queueHeld, List<GroupSummary> groups,
        List<StoredEvent> events, Job logJob, List<String> log) {
      this(now, zone, gpus, traces, processes, jobs, waits, progress, idle, heldGroups, queueHeld, groups, events, logJob, log, null);
    }

    /** What gq notices about the running jobs: idle since when, on which unwell GPU. */
    JobHints hints() {
      return new JobHints(idle, gpus.unwell(), now);
    }
  }

  static final String SPARKS = "▁▂▃▄▅▆▇█";
  private static final AttributedStyle TITLE = AttributedStyle.DEFAULT.inverse();
  private static final AttributedStyle HEAD = AttributedStyle.BOLD;
  private static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();
  private static final AttributedStyle SELECTED = AttributedStyle.DEFAULT.inverse();
  private static final AttributedStyle ASK = AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW);
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
  private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("MM-dd HH:mm", Locale.ROOT);
  private static final int MAX_HISTORY = 30;

  private TopScreen() {}

  /** The jobs the list shows, in its order: live jobs (running first, then by id), then ended ones, newest end first. */
  static List<Job> shown(Data d, TopView v) {
    List<Job> live = new ArrayList<>();
    List<Job> ended = new ArrayList<>();
    for (Job j : d.jobs()) {
      if (!v.shows(j, d.heldGroups())) continue;
      (j.state().terminal() ? ended : live).add(j);
    }
    live.sort((a, b) -> a.state() == JobState.WAITING != (b.state() == JobState.WAITING)
        ? (a.state() == JobState.WAITING ? 1 : -1) : Long.compare(a.id(), b.id()));
    ended.sort((a, b) -> {
      Instant ea = a.endTime() == null ? Instant.EPOCH : a.endTime();
      Instant eb = b.endTime() == null ? Instant.EPOCH : b.endTime();
      return eb.compareTo(ea) != 0 ? eb.compareTo(ea) : Long.compare(b.id(), a.id());
    });
    live.addAll(ended);
    return live;
  }

  static List<AttributedString> render(Data d, TopView v, int width, int height) {
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

  private static List<AttributedString> mainScreen(Data d, TopView v, int width, int height) {
    List<Job> shown = shown(d, v);
    v.settle(shown);
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

    int jobRows;
    int procShown;
    int groupShown = groups.size();
    int eventShown = events.size();
    int userShown = users.size();
    if (height <= 0) {
      jobRows = shown.size();
      procShown = procs;
    } else {
      int avail = height - 2 - gpuLines - 1; // title, keys, the jobs' header
      int cap = height >= 40 ? 8 : 3;
      groupShown = Math.min(groupShown, cap);
      eventShown = Math.min(eventShown, cap);
      int minJobs = Math.min(shown.size(), height >= 40 ? 10 : 4);
      // a small screen gives up the groups and events, then the users' lines, before the jobs
      while (avail - groupShown - eventShown - userShown < Math.max(1, minJobs) && (groupShown > 0 || eventShown > 0 || userShown > 0)) {
        if (eventShown >= groupShown && eventShown > 0) eventShown--;
        else if (groupShown > 0) groupShown--;
        else userShown--;
      }
      avail -= groupShown + eventShown + userShown;
      procShown = Math.max(0, Math.min(procs, avail - Math.max(1, minJobs)));
      jobRows = Math.max(0, avail - procShown);
    }

    List<AttributedString> lines = new ArrayList<>();
    lines.add(bar(title(d, v, shown), width, TITLE));
    lines.addAll(gpuRows.get(0));
    for (int i = 1; i < gpuRows.size(); i++) {
      lines.addAll(gpuRows.get(i));
      if (i - 1 < procRows.size()) {
        for (AttributedString p : procRows.get(i - 1)) {
          if (procShown-- <= 0) break;
          lines.add(p);
        }
      }
    }
    lines.addAll(users.subList(0, userShown));
    lines.add(bar(jobHeader(width), width, HEAD));
    lines.addAll(jobLines(d, v, shown, jobRows, width, height > 0));
    if (height > 0) {
      while (lines.size() < height - 1 - groupShown - eventShown) lines.add(AttributedString.EMPTY);
    }
    lines.addAll(groups.subList(0, groupShown));
    lines.addAll(events.subList(events.size() - eventShown, events.size()));
    if (height > 0) lines.add(footer(v, width));
    return lines;
  }

  private static String title(Data d, TopView v, List<Job> shown) {
    int free = 0;
    for (GpuStatus g : d.gpus().gpus()) if (g.state() == GpuState.FREE) free++;
    int running = 0, waiting = 0;
    for (Job j : d.jobs()) {
      if (j.state() == JobState.WAITING) waiting++;
      else if (!j.state().terminal()) running++;
    }
    StringBuilder sb = new StringBuilder(" gq top  ").append(CLOCK.format(d.now().atZone(d.zone())));
    sb.append("  ").append(d.gpus().gpus().size()).append(" GPUs, ").append(free).append(" free");
    sb.append("  ").append(running).append(" running, ").append(waiting).append(" waiting");
    if (d.queueHeld()) sb.append("  QUEUE HELD");
    if (d.gpus().fake()) sb.append("  (fake GPUs)");
    if (!v.filter().isEmpty()) sb.append("  filter: ").append(v.filter()).append(" (").append(shown.size()).append(')');
    return sb.toString();
  }

  // ---------------------------------------------------------------- GPUs

  /** How wide the history column is at {@code width}: what is left after the others, at most 30. */
  private static int historyWidth(int width) {
    return Math.max(0, Math.min(MAX_HISTORY, width - fixedGpuWidth(width) - 1));
  }

  private static boolean wide(int width) {
    return width >= 120;
  }

  private static int fixedGpuWidth(int width) {
    // GPU STATE HOLDER UTIL MEMORY TEMP POWER [TYPE]
    return 4 + 10 + 15 + 5 + 14 + 5 + (wide(width) ? 10 + 20 : 6);
  }

  private static String gpuHeader(int width) {
    StringBuilder sb = new StringBuilder();
    sb.append(pad("GPU", 4)).append(pad("STATE", 10)).append(pad("HOLDER", 15)).append(padLeft("UTIL", 4)).append(' ')
        .append(padLeft("MEMORY", 13)).append(' ').append(padLeft("TEMP", 4)).append(' ')
        .append(padLeft("POWER", wide(width) ? 9 : 5)).append(' ');
    if (wide(width)) sb.append(pad("TYPE", 20));
    if (historyWidth(width) > 0) sb.append(pad("UTIL HISTORY", historyWidth(width)));
    return sb.toString();
  }

  private static AttributedString gpuRow(Data d, GpuStatus g, int width) {
    GpuHistory.Trace trace = d.traces().get(g.uuid());
    GpuFigures f = trace == null ? d.gpus().figures(g.uuid()) : trace.latest();
    AttributedStringBuilder b = new AttributedStringBuilder();
    b.append(pad(String.valueOf(g.index()), 4));
    b.styled(stateStyle(g.state()), pad(g.state().name(), 10));
    b.append(pad(cut(holder(d, g), 14), 15));
    b.append(padLeft(f.utilPercent() == null ? "" : f.utilPercent() + "%", 4)).append(' ');
    b.append(padLeft(memory(g.usedBytes(), g.totalBytes()), 13)).append(' ');
    b.append(padLeft(f.temperatureC() == null ? "" : f.temperatureC() + "C", 4)).append(' ');
    b.append(padLeft(power(f, wide(width)), wide(width) ? 9 : 5)).append(' ');
    if (wide(width)) b.append(pad(cut(GpuCommand.type(g.name()), 19), 20));
    int hw = historyWidth(width);
    if (hw > 0) b.styled(AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN), sparkline(trace == null ? List.of() : trace.util(), hw));
    return b.toAttributedString();
  }

  /**
   * Who holds the GPU: its job or its shared jobs ("jobs 4,5", "+1" for another gq instance's share
   * beside them, "other gq" when only others share it), another gq's job or user, an outside user, or
   * why it is unknown or drained (the whole reason is on the note under it).
   */
  static String holder(Data d, GpuStatus g) {
    if (g.heldBy() != null) return g.heldBy();
    if (g.state() == GpuState.SHARED) {
      List<String> ids = g.shares().stream().map(s -> String.valueOf(s.jobId())).toList();
      String ours = ids.isEmpty() ? "" : (ids.size() == 1 ? "job " : "jobs ") + String.join(",", ids);
      if (g.others().isEmpty()) return ours;
      // other gq instances' shares: named on the line under the GPU
      return ours.isEmpty() ? "other gq" : ours + " +" + g.others().size();
    }
    if (g.shares().size() > 1)
      return "jobs " + String.join(",", g.shares().stream().map(s -> String.valueOf(s.jobId())).toList());
    if (g.ownerJobId() != null) return "job " + g.ownerJobId();
    if (g.state() == GpuState.EXTERNAL) {
      for (GpuProcess p : g.processes()) {
        ProcessView pv = d.processes().get(p.pid());
        if (pv != null && pv.user() != null) return pv.user();
      }
      return "outside";
    }
    if (g.state() == GpuState.DRAINED) return d.gpus().unwell().containsKey(g.uuid()) ? "unwell" : "drained";
    if (g.state() == GpuState.UNKNOWN) return g.detail() == null ? "" : g.detail();
    return "";
  }

  /**
   * The lines under a GPU's row: a shared GPU's jobs with their shares and what is left ("jobs 4 (20GB),
   * 5 (20GB), bob's job 3 (20GB); 15.4 GB left", other gq instances' shares after this one's, a job
   * using more than it declared marked "over"); the problem of an unwell
   * GPU; a drain with its reason and how to undo it.
   */
  static List<AttributedString> noteRows(Data d, GpuStatus g) {
    List<AttributedString> out = new ArrayList<>();
    long headroom = d.gpus().shareHeadroomMiB();
    if (!g.shares().isEmpty() || !g.others().isEmpty()) {
      boolean over = !g.overShares(headroom).isEmpty();
      String s = "    " + dev.gq.core.alloc.SharedFit.describe(g, headroom)
          + (over ? "; no more jobs go here while a job uses more than it declared" : "");
      out.add(new AttributedString(s, over ? AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW) : AttributedStyle.DEFAULT));
    }
    String problem = d.gpus().unwell().get(g.uuid());
    String detail = g.detail() == null || g.detail().isBlank() ? null : g.detail();
    if (problem != null) {
      String undo = "'gq gpu resume " + g.index() + "' gives it back";
      out.add(new AttributedString("    unwell: " + PrintableText.escape(problem)
          + (g.state() == GpuState.DRAINED ? "" : "; no new job after this one") + "; " + undo,
          AttributedStyle.DEFAULT.foreground(AttributedStyle.MAGENTA)));
    } else if (detail != null && (g.state() == GpuState.DRAINED || detail.contains("drained ("))) {
      out.add(new AttributedString("    " + PrintableText.escape(detail), AttributedStyle.DEFAULT.foreground(AttributedStyle.MAGENTA)));
    }
    return out;
  }

  private static List<AttributedString> processRows(Data d, GpuStatus g, int width) {
    List<AttributedString> rows = new ArrayList<>();
    for (GpuProcess p : g.processes()) {
      ProcessView pv = d.processes().get(p.pid());
      Long job = jobOf(d, g, pv);
      StringBuilder sb = new StringBuilder("    pid ").append(pad(String.valueOf(p.pid()), 8));
      if (job != null) sb.append(pad("job " + job, 10));
      else sb.append(pad(pv == null || pv.user() == null ? "?" : cut(pv.user(), 9), 10));
      sb.append(padLeft(p.usedBytes() < 0 ? "" : gib(p.usedBytes()) + "G", 7)).append("  ");
      if (job != null) {
        // a job's process: the job's name says more than the launcher's command line
        Job j = d.jobs().stream().filter(x -> x.id() == job).findFirst().orElse(null);
        sb.append(j == null ? "" : PrintableText.escape(JobColumn.name(j)));
      } else {
        if (pv != null && pv.started() != null)
          sb.append(pad(Durations.format(coarse(Duration.between(pv.started(), d.now()))), 8));
        sb.append(pv == null ? "" : PrintableText.escape(pv.command()));
      }
      rows.add(new AttributedString(sb.toString(), DIM));
    }
    return rows;
  }

  /**
   * The job a process on GPU {@code g} belongs to, by the rule the scheduler classifies with
   * ({@link Ownership#owns}: the job's session or group, its GQ_JOB_TAG, an adopted job's descendants)
   * over the jobs that hold the GPU: its shared jobs, or its one job. A RUNNING or RESERVED GPU is
   * one only when its job owns every process on it, so that job owns one /proc no longer shows too;
   * on a shared GPU such a process is nobody's (null).
   */
  static Long jobOf(Data d, GpuStatus g, ProcessView pv) {
    List<Long> holders = g.shares().isEmpty()
        ? (g.ownerJobId() == null ? List.of() : List.of(g.ownerJobId()))
        : g.shares().stream().map(GpuStatus.Share::jobId).toList();
    if (pv != null && pv.facts() != null) {
      for (long id : holders) {
        for (Job j : d.jobs()) if (j.id() == id && Ownership.owns(j, pv.facts())) return id;
      }
    }
    if (!g.shares().isEmpty()) return null;
    return g.state() == GpuState.RUNNING || g.state() == GpuState.RESERVED ? g.ownerJobId() : null;
  }

  static String sparkline(List<Integer> points, int width) {
    StringBuilder sb = new StringBuilder();
    int from = Math.max(0, points.size() - width);
    for (int i = from; i < points.size(); i++) {
      Integer p = points.get(i);
      if (p == null) sb.append(' ');
      else sb.append(SPARKS.charAt(Math.max(0, Math.min(SPARKS.length() - 1, p * SPARKS.length() / 101))));
    }
    return sb.toString();
  }

  static String memory(long used, long total) {
    if (total <= 0) return "";
    return gib(used) + "/" + gib(total) + "G";
  }

  private static String gib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / (1024.0 * 1024 * 1024));
  }

  static String power(GpuFigures f, boolean withLimit) {
    if (f.powerWatts() == null) return "";
    if (withLimit && f.powerLimitWatts() != null) return f.powerWatts() + "/" + f.powerLimitWatts() + "W";
    return f.powerWatts() + "W";
  }

  private static AttributedStyle stateStyle(GpuState s) {
    return switch (s) {
      case FREE -> AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
      case RUNNING, RESERVED -> AttributedStyle.DEFAULT.foreground(AttributedStyle.CYAN);
      case EXTERNAL -> AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW);
      case UNKNOWN -> AttributedStyle.BOLD.foreground(AttributedStyle.RED);
      case DRAINED -> AttributedStyle.DEFAULT.foreground(AttributedStyle.MAGENTA);
      case SHARED -> AttributedStyle.DEFAULT.foreground(AttributedStyle.BLUE);
    };
  }

  // ---------------------------------------------------------------- everyone

  /**
   * Everyone's part of a shared machine, under the GPUs: "user alice   4 held  4 running  6 waiting
   * (6 GPUs)" a line each, then the policy and the bookings in one line; none when this user is alone
   * on it without a policy or booking in force.
   */
  static List<AttributedString> userRows(Data d) {
    List<AttributedString> rows = new ArrayList<>();
    GqApi.WhoReport who = d.who();
    if (!WhoCommand.shared(who)) return rows;
    for (dev.gq.core.schedule.FairWho.Row r : who.users()) {
      String s = "user " + pad(cut(PrintableText.escape(r.user()), 12), 13) + padLeft(String.valueOf(r.gpusHeld()), 2) + " held  "
          + padLeft(String.valueOf(r.jobsRunning()), 2) + " running  " + padLeft(String.valueOf(r.jobsWaiting()), 2) + " waiting";
      if (r.jobsWaiting() > 0) s += " (" + r.gpusWanted() + (r.gpusWanted() == 1 ? " GPU)" : " GPUs)");
      rows.add(new AttributedString(s, r.jobsWaiting() > 0 && r.gpusHeld() == 0
          ? AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW) : AttributedStyle.DEFAULT));
    }
    StringBuilder sb = new StringBuilder("policy: ").append(PrintableText.escape(who.policy()));
    for (GqApi.BookingLine b : who.bookings())
      sb.append("  booked: ").append(BookCommand.gpus(b)).append(" by ").append(PrintableText.escape(b.user())).append(' ')
          .append(SHORT.format(b.start().atZone(d.zone()))).append('-').append(SHORT.format(b.end().atZone(d.zone())));
    rows.add(new AttributedString(sb.toString(), DIM));
    return rows;
  }

  // ---------------------------------------------------------------- jobs

  private static String jobHeader(int width) {
    return pad("ID", 6) + pad("STATE", 11) + pad("GPUS", 6) + padLeft("ELAPSED", 8) + "  " + pad("PROGRESS", 15)
        + (width >= 100 ? pad("GROUP", 16) : pad("GROUP", 9)) + "NAME / WHY";
  }

  private static List<AttributedString> jobLines(Data d, TopView v, List<Job> shown, int rows, int width, boolean fixed) {
    List<AttributedString> out = new ArrayList<>();
    if (shown.isEmpty()) {
      if (rows > 0) out.add(new AttributedString(v.filter().isEmpty()
          ? "  no jobs yet; submit one with 'gq run -g 1 CMD'" : "  no job matches the filter '" + v.filter() + "' (f to change it)", DIM));
      return out;
    }
    v.page(Math.max(1, rows - 1));
    int sel = 0;
    for (int i = 0; i < shown.size(); i++) if (v.selected() != null && shown.get(i).id() == v.selected()) sel = i;
    int start = 0;
    if (fixed && shown.size() > rows) start = Math.max(0, Math.min(sel - rows / 2, shown.size() - rows));
    int end = fixed ? Math.min(shown.size(), start + rows) : shown.size();
    for (int i = start; i < end; i++) {
      Job j = shown.get(i);
      String text = jobText(d, j, width);
      boolean isSel = fixed && v.selected() != null && j.id() == v.selected();
      if (isSel) out.add(new AttributedString(pad(text, width), SELECTED));
      else out.add(new AttributedString(text, jobStyle(j)));
    }
    if (fixed && end < shown.size() && !out.isEmpty())
      out.set(out.size() - 1, new AttributedString("  … " + (shown.size() - end + 1) + " more (Page Down)", DIM));
    return out;
  }

  static String jobText(Data d, Job j, int width) {
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
    return pad(String.valueOf(j.id()), 6) + pad(state, 11) + pad(JobColumn.gpus(j), 6)
        + padLeft(JobColumn.elapsed(j, d.now()), 8) + "  " + pad(cut(progress, 14), 15) + pad(group, groupWidth)
        + PrintableText.escape(JobColumn.name(j)) + why;
  }

  private static AttributedStyle jobStyle(Job j) {
    return switch (j.state()) {
      case RUNNING, STARTING -> AttributedStyle.DEFAULT.foreground(AttributedStyle.GREEN);
      case FAILED, TIMEOUT, INTERRUPTED, ORPHANED -> AttributedStyle.DEFAULT.foreground(AttributedStyle.RED);
      case WAITING -> AttributedStyle.DEFAULT;
      default -> DIM;
    };
  }

  // ---------------------------------------------------------------- groups, events, keys

  private static List<AttributedString> groupRows(Data d, int width) {
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

  private static List<AttributedString> eventRows(Data d, int width) {
    List<AttributedString> rows = new ArrayList<>();
    for (StoredEvent e : d.events()) rows.add(new AttributedString(eventText(d, e), DIM));
    return rows;
  }

  /** "12:30:01 JobLaunched job 4": the newest events, in local time, one line each. */
  static String eventText(Data d, StoredEvent e) {
    StringBuilder sb = new StringBuilder(CLOCK.format(e.time().atZone(d.zone()))).append(' ').append(pad(e.type(), 20));
    if (e.jobId() != null) sb.append("job ").append(e.jobId());
    Object reason = e.fields().get("reason");
    if (reason == null) reason = e.fields().get("group");
    if (reason instanceof String s && !s.isBlank()) sb.append("  ").append(PrintableText.escape(s));
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

  private static List<AttributedString> helpScreen(Data d, TopView v, int width, int height) {
    List<AttributedString> lines = new ArrayList<>();
    lines.add(bar(" gq top: keys", width, TITLE));
    for (String l : List.of(
        "↑ ↓  j k        move between jobs (Page Up/Down, Home/End, g/G)",
        "Enter  l        the selected job's log, following it; q or Esc comes back",
        "c               cancel the selected job (asks first: y to do it)",
        "h  r            hold / release the selected waiting job (asks first)",
        "p               preempt the selected running job: TERM, 2 min to save (asks first)",
        "f  /            filter: a group's name, or a state (running, waiting, failed, held, live);",
        "                Enter applies, an empty filter shows all, Esc in the list clears it",
        "?               this help; any key comes back",
        "q  Ctrl-C       quit",
        "",
        "GPUs: state (only FREE gets new jobs; SHARED only shared ones while their memory fits),",
        "holder, utilisation, memory, temperature, power and the utilisation of the last readings;",
        "blank where the GPU does not say. Under a GPU: its shared jobs' shares, why it is drained or",
        "unwell, and its processes: a job's, or an outside user's with its age and command.",
        "On a shared machine, under the GPUs: each user's GPUs held and jobs running and waiting,",
        "then the machine policy and the bookings (gq who says more).",
        "A job whose GPUs have shown 0% for a while is marked idle: a hint, gq does not stop it.",
        "Nothing changes without a y to the question on the last line."))
      lines.add(plain(" " + l));
    if (height > 0) {
      while (lines.size() < height - 1) lines.add(AttributedString.EMPTY);
      while (lines.size() > height - 1) lines.remove(lines.size() - 1);
      lines.add(new AttributedString("any key: back", DIM));
    }
    return lines;
  }

  private static List<AttributedString> logScreen(Data d, TopView v, int width, int height) {
    List<AttributedString> lines = new ArrayList<>();
    Job j = d.logJob();
    String head = j == null ? " log: job " + v.selected() + " is gone"
        : " log of job " + j.id() + "  " + PrintableText.escape(JobColumn.name(j)) + "  " + j.state()
            + (j.state().terminal() ? "" : "  (following)");
    lines.add(bar(head, width, TITLE));
    List<String> log = d.log();
    int room = height > 0 ? height - 2 : log.size();
    if (log.isEmpty()) lines.add(new AttributedString(j == null || j.logPath() == null ? "  (no log)" : "  (the log is empty)", DIM));
    for (String l : log.subList(Math.max(0, log.size() - room), log.size())) lines.add(plain(l));
    if (height > 0) {
      while (lines.size() < height - 1) lines.add(AttributedString.EMPTY);
      lines.add(new AttributedString("q/Esc back to the list   (gq logs -f " + (j == null ? "" : j.id()) + " follows it outside)", DIM));
    }
    return lines;
  }

  // ---------------------------------------------------------------- text

  private static AttributedString plain(String s) {
    return new AttributedString(s);
  }

  private static AttributedString bar(String text, int width, AttributedStyle style) {
    return new AttributedString(pad(text, width), style);
  }

  /** At most {@code width} columns, cut by display width (wide characters count two). */
  static AttributedString fit(AttributedString s, int width) {
    return s.columnLength() <= width ? s : s.columnSubSequence(0, width);
  }

  static String pad(String s, int width) {
    int w = new AttributedString(s).columnLength();
    return w >= width ? s : s + " ".repeat(width - w);
  }

  static String padLeft(String s, int width) {
    int w = new AttributedString(s).columnLength();
    return w >= width ? s : " ".repeat(width - w) + s;
  }

  /** {@code s} cut to {@code width} columns, ending in "…" when cut. */
  static String cut(String s, int width) {
    AttributedString a = new AttributedString(s);
    if (a.columnLength() <= width) return s;
    return a.columnSubSequence(0, Math.max(0, width - 1)).toString() + "…";
  }

  private static Duration coarse(Duration d) {
    if (d.isNegative()) return Duration.ZERO;
    if (d.compareTo(Duration.ofHours(1)) < 0) return d.truncatedTo(java.time.temporal.ChronoUnit.MINUTES).isZero()
        ? d.truncatedTo(java.time.temporal.ChronoUnit.SECONDS) : d.truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
    return d.truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
  }
}
