package dev.gq.web;

import dev.gq.api.ApiReplies.BookingLine;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.api.GqApi;
import dev.gq.core.job.JobState;
import dev.gq.core.schedule.FairWho;
import java.util.List;
import java.util.Map;

/**
 * The page's sections on the shared machine and the groups: everyone's line as {@code gq who}
 * counts it, the policy and the bookings in force; and each group's jobs by state with its hold,
 * as {@code gq groups} shows them. Pure.
 */
final class ShareSections {
  private ShareSections() {}

  static String who(MachineView v) {
    GqApi.WhoReport who = v.who();
    if (who == null) return "<p>This daemon does not show the shared machine.</p>";
    StringBuilder sb = new StringBuilder();
    if (who.users().isEmpty()) sb.append("<p>Nobody holds or waits for GPUs.</p>");
    else {
      sb.append("<table><caption>Every user's GPUs held and jobs waiting</caption><thead><tr>");
      for (String h : List.of("User", "GPUs held", "Jobs on GPUs", "Waiting", "GPUs wanted", "Waiting since"))
        sb.append("<th scope=\"col\">").append(h).append("</th>");
      sb.append("</tr></thead><tbody>");
      for (FairWho.Row r : who.users())
        sb.append("<tr><th scope=\"row\">").append(Html.text(r.user())).append("</th><td>").append(r.gpusHeld())
            .append("</td><td>").append(r.jobsRunning()).append("</td><td>").append(r.jobsWaiting()).append("</td><td>")
            .append(r.gpusWanted()).append("</td><td>").append(JobTable.time(r.waitingSince(), v.zone())).append("</td></tr>");
      sb.append("</tbody></table>");
    }
    sb.append("<p>Policy: ").append(Html.text(who.policy())).append("</p>");
    if (who.bookings().isEmpty()) return sb.append("<p>No bookings.</p>").toString();
    sb.append("<ul class=\"bookings\">");
    for (BookingLine b : who.bookings())
      sb.append("<li>GPUs ").append(Html.text(b.indices().toString())).append(" booked by ").append(Html.text(b.user()))
          .append(" from ").append(JobTable.time(b.start(), v.zone())).append(" to ").append(JobTable.time(b.end(), v.zone()))
          .append(" (").append(Html.text(b.id())).append(")</li>");
    return sb.append("</ul>").toString();
  }

  static String groups(MachineView v) {
    if (v.groups().isEmpty()) return "<p>No groups.</p>";
    StringBuilder sb = new StringBuilder("<table><caption>Your groups</caption><thead><tr>");
    for (String h : List.of("Group", "Running", "Waiting", "Done", "Failed", "Other", "Hold"))
      sb.append("<th scope=\"col\">").append(h).append("</th>");
    sb.append("</tr></thead><tbody>");
    for (GroupSummary g : v.groups()) {
      Map<JobState, Integer> c = g.counts();
      int running = c.getOrDefault(JobState.RUNNING, 0), waiting = c.getOrDefault(JobState.WAITING, 0);
      int done = c.getOrDefault(JobState.DONE, 0), failed = c.getOrDefault(JobState.FAILED, 0);
      int all = c.values().stream().mapToInt(Integer::intValue).sum();
      sb.append("<tr><th scope=\"row\">").append(Html.text(g.group())).append("</th><td>").append(running).append("</td><td>")
          .append(waiting).append("</td><td>").append(done).append("</td><td>").append(failed).append("</td><td>")
          .append(all - running - waiting - done - failed).append("</td><td>").append(g.held() ? Html.text(g.holdReason()) : "-")
          .append("</td></tr>");
    }
    return sb.append("</tbody></table>").toString();
  }
}
