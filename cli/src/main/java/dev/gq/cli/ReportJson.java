package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.core.job.JobState;
import dev.gq.core.report.UsageReport;
import dev.gq.core.report.UsageRow;
import java.time.Duration;

/** {@code gq report --json}: the report as docs/schemas/report.schema.json describes it. */
final class ReportJson {
  private ReportJson() {}

  static ObjectNode of(UsageReport r) {
    ObjectNode n = JsonView.object();
    n.put("from", JsonView.time(r.period().from()));
    n.put("until", JsonView.time(r.period().to()));
    n.put("group", r.group());
    n.put("gpu_time_known_from", JsonView.time(r.gpuTimeKnownFrom()));
    n.put("gpu_time_known_seconds", r.gpuTimeKnown().toMillis() / 1000.0);
    n.put("shared_jobs", r.sharedJobs());
    var gpus = n.putArray("gpus");
    for (UsageRow row : r.gpus()) {
      ObjectNode g = gpus.addObject();
      g.put("index", row.gpuIndex());
      g.put("uuid", row.name());
      figures(g, row, true);
    }
    var groups = n.putArray("groups");
    for (UsageRow row : r.groups()) figures(groups.addObject().put("group", row.name()), row, false);
    figures(n.putObject("total"), r.total(), true);
    return n;
  }

  private static void figures(ObjectNode n, UsageRow row, boolean gpuTime) {
    n.put("gpu_hours", round(row.gpuHours()));
    ObjectNode ended = n.putObject("ended");
    for (JobState s : JobState.values()) if (s.terminal()) ended.put(s.name(), row.ended(s));
    n.put("started", row.started());
    n.put("wait_median_seconds", seconds(row.waitMedian()));
    n.put("wait_p90_seconds", seconds(row.waitP90()));
    if (!gpuTime) return;
    n.put("outside_hours", row.outsideHours() == null ? null : round(row.outsideHours()));
    n.put("idle_hours", row.idleHours() == null ? null : round(row.idleHours()));
  }

  private static Double seconds(Duration d) {
    return d == null ? null : d.toMillis() / 1000.0;
  }

  /** Hours to four decimals (a third of a second): no float noise in the output. */
  static double round(double hours) {
    return Math.round(hours * 10_000) / 10_000.0;
  }
}
