package dev.gq.web;

import dev.gq.api.GqApi;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.JobState;
import dev.gq.core.schedule.FairWho;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The metrics in the Prometheus text format, written by the official Prometheus client's writer:
 * each GPU's figures, state, holder and health (labelled {@code gpu} with the index and {@code uuid}
 * as dcgm-exporter labels them), the queue's jobs by state and user, everyone's GPUs held and jobs
 * waiting, and the daemon's own health. All gauges, from one {@link MachineView} and the daemon's
 * part lines. Pure but for the stream it writes.
 */
final class MetricsText {
  /** The daemon's health besides the view: why its journal cannot be written (null: it can) and its parts' lines. */
  record Health(String journalProblem, List<String> parts) {}

  private final Map<String, GaugeSnapshot.Builder> gauges = new LinkedHashMap<>();
  /** Each series once: two words for one holder must not make the writer refuse the scrape. */
  private final Set<String> series = new HashSet<>();

  private MetricsText() {}

  static void write(MachineView v, Health h, OutputStream out) throws IOException {
    MetricsText m = new MetricsText();
    m.gpus(v);
    m.queue(v);
    m.daemon(h);
    List<MetricSnapshot> all = new ArrayList<>();
    for (GaugeSnapshot.Builder b : m.gauges.values()) all.add(b.build());
    PrometheusTextFormatWriter.create().write(out, new MetricSnapshots(all));
  }

  private void gpus(MachineView v) {
    for (GpuStatus g : v.gpus().gpus()) {
      String[] id = {"gpu", Integer.toString(g.index()), "uuid", g.uuid()};
      GpuFigures f = v.gpus().figures(g.uuid());
      if (f.utilPercent() != null) add("gq_gpu_utilization_ratio", "GPU compute utilisation, 0 to 1.", f.utilPercent() / 100.0, id);
      add("gq_gpu_memory_used_bytes", "GPU memory in use.", g.usedBytes(), id);
      add("gq_gpu_memory_total_bytes", "GPU memory in all.", g.totalBytes(), id);
      if (f.temperatureC() != null) add("gq_gpu_temperature_celsius", "GPU temperature.", f.temperatureC(), id);
      if (f.powerWatts() != null) add("gq_gpu_power_watts", "GPU power draw.", f.powerWatts(), id);
      add("gq_gpu_state", "1 for the GPU's state as gq gpu shows it.", 1, with(id, "state", g.state().name()));
      holders(v, g, id);
      add("gq_gpu_healthy", "1 when the driver reports no problem with the GPU, 0 when gq found it unwell.",
          v.gpus().unwell().containsKey(g.uuid()) ? 0 : 1, id);
      add("gq_gpu_shares", "Shared jobs on the GPU, this gq's and other users'.", g.shares().size() + g.others().size(), id);
    }
  }

  private void holders(MachineView v, GpuStatus g, String[] id) {
    String help = "1 for each job holding the GPU: this user's jobs by id, other users' by their lease's words.";
    if (!g.shares().isEmpty())
      for (GpuStatus.Share s : g.shares()) add("gq_gpu_holder", help, 1, with(id, "user", v.user(), "job", Long.toString(s.jobId())));
    else if (g.ownerJobId() != null) add("gq_gpu_holder", help, 1, with(id, "user", v.user(), "job", g.ownerJobId().toString()));
    if (g.heldBy() != null) add("gq_gpu_holder", help, 1, with(id, "user", "", "job", g.heldBy()));
    for (GpuStatus.Other o : g.others()) add("gq_gpu_holder", help, 1, with(id, "user", "", "job", o.holder()));
  }

  private void queue(MachineView v) {
    Map<JobState, Integer> live = new EnumMap<>(JobState.class);
    for (JobState s : JobState.live()) live.put(s, v.live(s));
    live.forEach((s, n) -> add("gq_jobs", "This user's live jobs by state.", n, "user", v.user(), "state", s.name()));
    GqApi.WhoReport who = v.who();
    if (who == null) return;
    for (FairWho.Row r : who.users()) {
      add("gq_user_gpus_held", "GPUs each user's jobs hold on this machine (gq who).", r.gpusHeld(), "user", r.user());
      add("gq_user_jobs_on_gpus", "Jobs each user runs on GPUs (gq who).", r.jobsRunning(), "user", r.user());
      add("gq_user_jobs_waiting", "Jobs each user has waiting (gq who).", r.jobsWaiting(), "user", r.user());
      add("gq_user_gpus_wanted", "GPUs each user's waiting jobs want (gq who).", r.gpusWanted(), "user", r.user());
    }
    add("gq_bookings", "Bookings in force on this machine.", who.bookings().size());
  }

  private void daemon(Health h) {
    add("gq_daemon_up", "1 while the daemon answers.", 1);
    add("gq_daemon_journal_writable", "1 when the daemon's journal takes writes.", h.journalProblem() == null ? 1 : 0);
    for (String line : h.parts()) {
      int colon = line.indexOf(':');
      if (colon <= 0) continue;
      add("gq_daemon_part_ok", "1 when a part of the daemon works (gq daemon status).",
          line.startsWith(": ok", colon) ? 1 : 0, "part", line.substring(0, colon));
    }
  }

  private static String[] with(String[] id, String... more) {
    String[] all = new String[id.length + more.length];
    System.arraycopy(id, 0, all, 0, id.length);
    System.arraycopy(more, 0, all, id.length, more.length);
    return all;
  }

  private void add(String name, String help, double value, String... labels) {
    if (!series.add(name + Arrays.toString(labels))) return;
    gauges.computeIfAbsent(name, n -> GaugeSnapshot.builder().name(n).help(help))
        .dataPoint(GaugeDataPointSnapshot.builder().labels(Labels.of(labels)).value(value).build());
  }
}
