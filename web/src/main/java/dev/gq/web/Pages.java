package dev.gq.web;

import dev.gq.core.job.Job;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The whole pages, server-rendered so that they read without JavaScript: the machine's page (its
 * sections, each in an element the live script replaces when the section changes) and a job's
 * page (its facts and the end of its log); and the lab's page, only the GPUs and everyone's line of
 * {@code gq who} (with the policy and the bookings), which never renders a job's name, command,
 * directory or log even when the view holds them. Headings, labelled tables and landmarks for screen
 * readers; the script and the style sheet are the jar's own files. Pure.
 */
final class Pages {
  private Pages() {}

  /** The machine page's live sections by name, in page order, with their headings. */
  static Map<String, String> sections(MachineView v, String token) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("gpus", GpuTable.html(v, token, true));
    m.put("who", ShareSections.who(v));
    m.put("jobs", JobTable.html(v, token));
    m.put("groups", ShareSections.groups(v));
    return m;
  }

  /** The lab's page's live sections: the GPUs, with no links to job pages, and everyone's line. */
  static Map<String, String> labSections(MachineView v, String token) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("gpus", GpuTable.html(v, token, false));
    m.put("who", ShareSections.who(v));
    return m;
  }

  private static final Map<String, String> TITLES = Map.of("gpus", "GPUs", "who", "Everyone on this machine",
      "jobs", "Your jobs", "groups", "Groups");

  static String machine(MachineView v, String token) {
    StringBuilder sb = head("gq: " + v.user(), token, Links.events(token));
    sb.append("<h1>GPUs and ").append(Html.text(v.user())).append("'s jobs</h1>");
    return foot(sections(sb, v, sections(v, token)));
  }

  static String lab(MachineView v, String token) {
    StringBuilder sb = head("gq: the GPUs of this machine", token, Links.events(token));
    sb.append("<h1>The GPUs of this machine</h1>");
    return foot(sections(sb, v, labSections(v, token)));
  }

  private static StringBuilder sections(StringBuilder sb, MachineView v, Map<String, String> sections) {
    sb.append("<p id=\"live\" role=\"status\">As of ").append(JobTable.time(v.now(), v.zone())).append("</p>");
    for (Map.Entry<String, String> e : sections.entrySet()) {
      String id = e.getKey();
      sb.append("<section aria-labelledby=\"").append(id).append("-h\"><h2 id=\"").append(id).append("-h\">")
          .append(TITLES.get(id)).append("</h2><div data-live=\"").append(id).append("\">").append(e.getValue())
          .append("</div></section>");
    }
    return sb;
  }

  static String job(Job j, Estimate e, WaitReason wait, ZoneId zone, LogText log, String token) {
    StringBuilder sb = head("gq: job " + j.id(), token, Links.jobEvents(j.id(), log.end(), token));
    sb.append("<p><a href=\"").append(Links.home(token)).append("\">All GPUs and jobs</a></p>");
    sb.append("<h1>Job ").append(j.id()).append(": ").append(Html.text(JobTable.name(j))).append("</h1>");
    sb.append("<p id=\"live\" role=\"status\"></p>");
    sb.append("<section aria-labelledby=\"job-h\"><h2 id=\"job-h\">Facts</h2><div data-live=\"job\">")
        .append(facts(j, e, wait, zone)).append("</div></section>");
    sb.append("<section aria-labelledby=\"log-h\"><h2 id=\"log-h\">Log</h2>");
    if (log.problem() != null) sb.append("<p class=\"problem\">").append(Html.text(log.problem())).append("</p>");
    sb.append("<pre id=\"log\" tabindex=\"0\" aria-label=\"The end of the job's log\">").append(Html.lines(log.text()))
        .append("</pre></section>");
    return foot(sb);
  }

  /** A job's facts as a description list: the live part of its page. */
  static String facts(Job j, Estimate e, WaitReason wait, ZoneId zone) {
    StringBuilder sb = new StringBuilder("<dl>");
    fact(sb, "State", j.state().name());
    fact(sb, "Command", Html.text(String.join(" ", j.spec().argv())));
    fact(sb, "Directory", Html.text(j.spec().cwd()));
    fact(sb, "GPUs", JobTable.gpus(j));
    if (j.spec().group() != null) fact(sb, "Group", Html.text(j.spec().group()));
    fact(sb, "Submitted", JobTable.time(j.submitTime(), zone));
    if (j.startTime() != null) fact(sb, "Started", JobTable.time(j.startTime(), zone));
    if (j.endTime() != null) fact(sb, "Ended", JobTable.time(j.endTime(), zone));
    if (wait != null) fact(sb, "Why it waits", Html.text(wait.text()));
    String progress = JobTable.progress(e);
    if (!progress.isEmpty()) fact(sb, "Progress", progress);
    String why = JobTable.why(j, null);
    if (!why.isEmpty()) fact(sb, "How it ended", Html.text(why));
    return sb.append("</dl>").toString();
  }

  private static void fact(StringBuilder sb, String term, String html) {
    sb.append("<dt>").append(term).append("</dt><dd>").append(html).append("</dd>");
  }

  private static StringBuilder head(String title, String token, String events) {
    return new StringBuilder(4096).append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<link rel=\"icon\" href=\"data:,\"><title>").append(Html.text(title)).append("</title>")
        .append("<link rel=\"stylesheet\" href=\"").append(Links.asset("page.css", token)).append("\">")
        .append("<script defer src=\"").append(Links.asset("page.js", token)).append("\"></script>")
        .append("</head><body data-events=\"").append(Html.text(events)).append("\"><main>");
  }

  private static String foot(StringBuilder sb) {
    return sb.append("</main></body></html>").toString();
  }
}
