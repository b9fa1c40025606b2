package dev.gq.cli;

import static dev.gq.cli.ScreenText.DIM;
import static dev.gq.cli.ScreenText.cut;
import static dev.gq.cli.ScreenText.cutWords;
import static dev.gq.cli.ScreenText.pad;
import static dev.gq.cli.ScreenText.padLeft;

import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.core.alloc.Ownership;
import dev.gq.core.alloc.SharedFit;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.gpu.MemoryText;
import dev.gq.core.job.Durations;
import dev.gq.core.job.Job;
import dev.gq.core.job.PrintableText;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The GPU rows of {@code gq top}: each GPU's state, holder, figures and a sparkline of its
 * utilisation, the notes under a shared, drained or unwell one, the processes on it under the job
 * that owns them. Pure: {@link TopScreen} decides how many of them fit.
 */
final class TopGpuRows {
  static final String SPARKS = "▁▂▃▄▅▆▇█";
  private static final int MAX_HISTORY = 30;

  private TopGpuRows() {}

  /** How wide the history column is at {@code width}: what is left after the others, at most 30. */
  private static int historyWidth(int width) {
    return Math.max(0, Math.min(MAX_HISTORY, width - fixedGpuWidth(width) - 1));
  }

  private static boolean wide(int width) {
    return width >= 120;
  }

  private static int fixedGpuWidth(int width) {
    return otherColumns(width) + holderWidth(width);
  }

  // GPU STATE UTIL MEMORY TEMP POWER [TYPE]
  private static int otherColumns(int width) {
    return 4 + 10 + 5 + 14 + 5 + (wide(width) ? 10 + 20 : 6);
  }

  /** HOLDER: 15 columns, and what a wide screen has left once the history is whole, up to 40. */
  private static int holderWidth(int width) {
    return 15 + Math.max(0, Math.min(25, width - otherColumns(width) - 15 - 1 - MAX_HISTORY));
  }

  static String gpuHeader(int width) {
    StringBuilder sb = new StringBuilder();
    sb.append(pad("GPU", 4)).append(pad("STATE", 10)).append(pad("HOLDER", holderWidth(width))).append(padLeft("UTIL", 4)).append(' ')
        .append(padLeft("MEMORY", 13)).append(' ').append(padLeft("TEMP", 4)).append(' ')
        .append(padLeft("POWER", wide(width) ? 9 : 5)).append(' ');
    if (wide(width)) sb.append(pad("TYPE", 20));
    if (historyWidth(width) > 0) sb.append(pad("UTIL HISTORY", historyWidth(width)));
    return sb.toString();
  }

  static AttributedString gpuRow(TopData d, GpuStatus g, int width) {
    GpuHistory.Trace trace = d.traces().get(g.uuid());
    GpuFigures f = trace == null ? d.gpus().figures(g.uuid()) : trace.latest();
    AttributedStringBuilder b = new AttributedStringBuilder();
    b.append(pad(String.valueOf(g.index()), 4));
    b.styled(stateStyle(g.state()), pad(g.state().name(), 10));
    b.append(pad(cutWords(holder(d, g), holderWidth(width) - 1), holderWidth(width)));
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
  static String holder(TopData d, GpuStatus g) {
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
   * The lines under a GPU's row: a shared GPU's jobs with their shares and what is left ("jobs 4 (18.6G),
   * 5 (18.6G), bob's job 3 (18.6G); 15.4G left", other gq instances' shares after this one's, a job
   * using more than it declared marked "over"); the problem of an unwell
   * GPU; a drain with its reason and how to undo it.
   */
  static List<AttributedString> noteRows(TopData d, GpuStatus g) {
    List<AttributedString> out = new ArrayList<>();
    long headroom = d.gpus().shareHeadroomMiB();
    if (!g.shares().isEmpty() || !g.others().isEmpty()) {
      boolean over = !g.overShares(headroom).isEmpty();
      String s = "    " + SharedFit.describe(g, headroom)
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

  static List<AttributedString> processRows(TopData d, GpuStatus g, int width) {
    List<AttributedString> rows = new ArrayList<>();
    for (GpuProcess p : g.processes()) {
      ProcessView pv = d.processes().get(p.pid());
      Long job = jobOf(d, g, pv);
      StringBuilder sb = new StringBuilder("    pid ").append(pad(String.valueOf(p.pid()), 8));
      if (job != null) sb.append(pad("job " + job, 10));
      else sb.append(pad(pv == null || pv.user() == null ? "?" : cut(pv.user(), 9), 10));
      sb.append(padLeft(p.usedBytes() < 0 ? "" : MemoryText.brief(MemoryText.mib(p.usedBytes())), 7)).append("  ");
      if (job != null) {
        // a job's process: the job's name says more than the launcher's command line
        Job j = d.find(job);
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
  static Long jobOf(TopData d, GpuStatus g, ProcessView pv) {
    List<Long> holders = g.shares().isEmpty()
        ? (g.ownerJobId() == null ? List.of() : List.of(g.ownerJobId()))
        : g.shares().stream().map(GpuStatus.Share::jobId).toList();
    if (pv != null && pv.facts() != null) {
      for (long id : holders) {
        Job j = d.find(id);
        if (j != null && Ownership.owns(j, pv.facts())) return id;
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
    return MemoryText.usedOfTotal(MemoryText.mib(used), MemoryText.mib(total));
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

  private static Duration coarse(Duration d) {
    if (d.isNegative()) return Duration.ZERO;
    if (d.compareTo(Duration.ofHours(1)) < 0) return d.truncatedTo(ChronoUnit.MINUTES).isZero()
        ? d.truncatedTo(ChronoUnit.SECONDS) : d.truncatedTo(ChronoUnit.MINUTES);
    return d.truncatedTo(ChronoUnit.MINUTES);
  }
}
