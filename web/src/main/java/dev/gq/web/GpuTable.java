package dev.gq.web;

import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuStatus;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The page's GPU table, as {@code gq gpu} and {@code gq top} show the GPUs: state (with why, for an
 * UNKNOWN or EXTERNAL one), holder (user and job), utilisation, memory, temperature, power and
 * health, one row a GPU. On the lab's page ({@code jobPages} false) a holder's job is its number,
 * with no link: that page has no job pages. Pure.
 */
final class GpuTable {
  private GpuTable() {}

  static String html(MachineView v, String token, boolean jobPages) {
    StringBuilder sb = new StringBuilder();
    if (v.gpus().error() != null) sb.append("<p class=\"problem\">The GPUs cannot be read: ").append(Html.text(v.gpus().error())).append("</p>");
    if (v.gpus().fake()) sb.append("<p class=\"note\">These GPUs are fake (GQ_FAKE_NVML).</p>");
    if (v.gpus().gpus().isEmpty()) return sb.append("<p>No GPUs.</p>").toString();
    sb.append("<table><caption>Every GPU of this machine</caption><thead><tr>");
    for (String h : List.of("GPU", "Name", "State", "Holder", "Utilisation", "Memory", "Temperature", "Power", "Health"))
      sb.append("<th scope=\"col\">").append(h).append("</th>");
    sb.append("</tr></thead><tbody>");
    for (GpuStatus g : v.gpus().gpus()) row(sb, v, g, jobPages ? token : null, jobPages);
    return sb.append("</tbody></table>").toString();
  }

  private static void row(StringBuilder sb, MachineView v, GpuStatus g, String token, boolean jobPages) {
    GpuFigures f = v.gpus().figures(g.uuid());
    String unwell = v.gpus().unwell().get(g.uuid());
    sb.append("<tr class=\"gpu-").append(g.state().name().toLowerCase()).append("\">");
    sb.append("<th scope=\"row\">").append(g.index()).append("</th>");
    cell(sb, Html.text(g.name()) + "<br><small>" + Html.text(g.uuid()) + "</small>");
    cell(sb, g.state().name() + (g.detail() == null ? "" : "<br><small>" + Html.text(g.detail()) + "</small>"));
    cell(sb, holder(v, g, token, jobPages));
    cell(sb, percent(f.utilPercent()));
    cell(sb, mib(g.usedBytes()) + " / " + mib(g.totalBytes()) + " MiB");
    cell(sb, f.temperatureC() == null ? "-" : f.temperatureC() + " °C");
    cell(sb, f.powerWatts() == null ? "-" : f.powerWatts() + (f.powerLimitWatts() == null ? "" : " / " + f.powerLimitWatts()) + " W");
    cell(sb, unwell == null ? "ok" : "unwell: " + Html.text(unwell));
    sb.append("</tr>");
  }

  /** Who holds the GPU: this user's job (a link to its page), another gq's lease, shares, or an outside process's user. */
  static String holder(MachineView v, GpuStatus g, String token, boolean jobPages) {
    List<String> parts = new ArrayList<>();
    if (!g.shares().isEmpty()) for (GpuStatus.Share s : g.shares()) parts.add(mine(v, s.jobId(), token, jobPages));
    else if (g.ownerJobId() != null) parts.add(mine(v, g.ownerJobId(), token, jobPages));
    if (g.heldBy() != null) parts.add(Html.text(g.heldBy()));
    for (GpuStatus.Other o : g.others()) parts.add(Html.text(o.holder()));
    if (parts.isEmpty()) parts.addAll(outside(v, g));
    return parts.isEmpty() ? "-" : String.join(", ", new LinkedHashSet<>(parts));
  }

  private static String mine(MachineView v, long job, String token, boolean jobPages) {
    if (!jobPages) return Html.text(v.user()) + "'s job " + job;
    return Html.text(v.user()) + "'s <a href=\"" + Links.job(job, token) + "\">job " + job + "</a>";
  }

  private static Set<String> outside(MachineView v, GpuStatus g) {
    Set<String> users = new LinkedHashSet<>();
    for (GpuProcess p : g.processes()) {
      ProcessView pv = v.processes().get(p.pid());
      users.add(pv == null || pv.user() == null ? "pid " + p.pid() : Html.text(pv.user()) + " (pid " + p.pid() + ")");
    }
    return users;
  }

  private static void cell(StringBuilder sb, String html) {
    sb.append("<td>").append(html).append("</td>");
  }

  static String percent(Integer p) {
    return p == null ? "-" : "<meter min=\"0\" max=\"100\" value=\"" + p + "\">" + p + " %</meter> " + p + " %";
  }

  static long mib(long bytes) {
    return bytes / (1024 * 1024);
  }
}
