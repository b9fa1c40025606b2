package dev.gq.actors.socket;

import dev.gq.cli.ApiException;
import dev.gq.cli.ApiReplies.ProcessView;
import dev.gq.cli.GqApi;
import dev.gq.cli.WebControl;
import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.UsageFacts;
import dev.gq.persistence.GpuSpans;
import dev.gq.persistence.UsageReads;
import dev.gq.web.LocalWeb;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * What the daemon reads about the machine beyond the queue: the processes {@code gq adopt} takes
 * over, the GPUs' recent figures and processes for {@code gq top}, and the history and GPU spans
 * {@code gq report} counts.
 */
final class MachineRequests {
  private final ActorSystem<?> system;
  private LocalWeb web;
  private final AdoptRequests adoptions;
  private final Path database;
  private final GpuHistory gpuHistory;
  private final ProcessTable procs;

  /**
   * {@code database}: where {@code gq report} reads the history and the GPU spans; {@code gpuHistory}
   * and {@code procs}: where {@code gq top} reads the GPUs' recent figures (kept from the daemon's own
   * readings) and the user, command and start of the processes a GPU lists.
   */
  MachineRequests(ActorSystem<?> system, AdoptRequests adoptions, Path database, GpuHistory gpuHistory,
      ProcessTable procs) {
    this.system = system;
    this.adoptions = adoptions;
    this.database = database;
    this.gpuHistory = gpuHistory;
    this.procs = procs;
  }

  /** The page {@code gq web} serves from {@code api}, made at first use; it stops with the daemon. */
  synchronized WebControl web(GqApi api) {
    if (web == null) {
      web = new LocalWeb(api, System.getProperty("user.name"));
      system.getWhenTerminated().thenRun(web::stop);
    }
    return web;
  }

  UsageFacts usage(Instant from, Instant to, List<JobSpan.GpuRef> now) throws ApiException {
    try {
      return new UsageFacts(UsageReads.jobs(database, from, to), GpuSpans.read(database, from, to), now);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  Map<String, GpuHistory.Trace> gpuTraces() {
    return gpuHistory.traces();
  }

  Map<Long, ProcessView> processes(Collection<Long> pids) {
    return ProcessViews.of(procs, pids);
  }

  AdoptOutcome adopt(long pid, String name, String group, String key) throws ApiException {
    return adoptions.adopt(pid, name, group, key);
  }
}
