package dev.gq.web;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * The page's table of this user's jobs: the live jobs (the active ones, then at most
 * {@link ViewReads#WAITING_SHOWN} waiting ones, oldest first, and a row that counts the waiting ones
 * left out), then the newest ended ones; each with its state, GPUs, group, progress and ETA while it
 * runs, and why it waits or how it ended. Each id links to the job's own page. Pure.
 */
final class JobTable {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  private JobTable() {}

  static String html(MachineView v, String token) {
    if (v.jobs().isEmpty()) return "<p>No jobs.</p>";
    StringBuilder sb = new StringBuilder();
    if (v.queueHeld()) sb.append("<p class=\"problem\">The queue is held: waiting jobs start after 'gq release --all'.</p>");
    sb.append("<table><caption>Your live jobs (the active ones, then the waiting ones oldest first), then the newest ended"
        + " ones</caption><thead><tr>");
    for (String h : List.of("Job", "Name", "State", "GPUs", "Group", "Submitted", "Progress", "Why it waits, or how it ended"))
      sb.append("<th scope=\"col\">").append(h).append("</th>");
    sb.append("</tr></thead><tbody>");
    int more = v.waitingNotListed();
    boolean counted = false;
    for (Job j : v.jobs()) {
      if (more > 0 && !counted && j.state().terminal()) counted = more(sb, more);
      row(sb, v, j, token);
    }
    if (more > 0 && !counted) more(sb, more);
    return sb.append("</tbody></table>").toString();
  }

  /** The row that counts the waiting jobs the table leaves out, under the listed ones. */
  private static boolean more(StringBuilder sb, int more) {
    sb.append("<tr class=\"more\"><td colspan=\"8\">and ").append(String.format(Locale.ROOT, "%,d", more))
        .append(" more waiting: gq ps lists them all</td></tr>");
    return true;
  }

  private static void row(StringBuilder sb, MachineView v, Job j, String token) {
    sb.append("<tr class=\"job-").append(j.state().name().toLowerCase()).append("\">");
    sb.append("<th scope=\"row\"><a href=\"").append(Links.job(j.id(), token)).append("\">").append(j.id()).append("</a></th>");
    cell(sb, Html.text(name(j)));
    cell(sb, j.state().name());
    cell(sb, gpus(j));
    cell(sb, Html.text(j.spec().group()));
    cell(sb, time(j.submitTime(), v.zone()));
    cell(sb, progress(v.progress().get(j.id())));
    cell(sb, Html.text(why(j, v.waits().get(j.id()))));
    sb.append("</tr>");
  }

  /** The job's name, or its command when it has none. */
  static String name(Job j) {
    return j.spec().name() != null ? j.spec().name() : String.join(" ", j.spec().argv());
  }

  static String gpus(Job j) {
    if (!j.gpus().isEmpty()) return String.join(",", j.gpus().stream().map(s -> Integer.toString(s.index())).toList());
    return j.spec().gpus() == 0 ? "none" : j.spec().gpus() + " wanted";
  }

  static String progress(Estimate e) {
    if (e == null || e.column().isEmpty()) return "";
    int p = (int) Math.floor(e.percent());
    return "<progress max=\"100\" value=\"" + p + "\">" + p + " %</progress> " + Html.text(e.column());
  }

  /** Why a waiting job waits (briefly), or how an ended one ended: its exit code and reason. */
  static String why(Job j, WaitReason wait) {
    if (j.state() == JobState.WAITING) return wait == null ? "" : wait.brief();
    if (!j.state().terminal()) return "";
    String code = j.exitCode() == null ? "" : "exit " + j.exitCode();
    if (j.failureReason() == null) return code;
    return code.isEmpty() ? j.failureReason() : code + ": " + j.failureReason();
  }

  static String time(Instant t, ZoneId zone) {
    if (t == null) return "-";
    return "<time datetime=\"" + t + "\">" + TIME.format(t.atZone(zone)) + "</time>";
  }

  private static void cell(StringBuilder sb, String html) {
    sb.append("<td>").append(html).append("</td>");
  }
}
