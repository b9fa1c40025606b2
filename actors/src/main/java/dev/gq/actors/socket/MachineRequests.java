package dev.gq.actors.socket;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.GqApi;
import dev.gq.api.WebControl;
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
 * {@code gq report} counts. Each source is handed over once the daemon has started it; until then
 * the request says the daemon cannot answer it.
 */
final class MachineRequests {
  private final SchedulerAsks asks;
  private final ActorSystem<?> system;
  private LocalWeb web;
  private volatile AdoptRequests adoptions;
  private volatile Path database;
  private volatile GpuHistory gpuHistory;
  private volatile ProcessTable procs;

  MachineRequests(SchedulerAsks asks, ActorSystem<?> system) {
    this.asks = asks;
    this.system = system;
  }

  /** The page {@code gq web} serves from {@code api}, made at first use; it stops with the daemon. */
  synchronized WebControl web(GqApi api) {
    if (web == null) {
      web = new LocalWeb(api, System.getProperty("user.name"));
      system.getWhenTerminated().thenRun(web::stop);
    }
    return web;
  }

  void adoptFrom(ProcessTable procs, long uid, Path leaseDir) {
    this.adoptions = new AdoptRequests(asks, procs, uid, leaseDir);
  }

  void usageFrom(Path database) {
    this.database = database;
  }

  void topFrom(GpuHistory history, ProcessTable procs) {
    this.gpuHistory = history;
    this.procs = procs;
  }

  /** Whether {@code gq report} can be answered (the database is known). */
  boolean reports() {
    return database != null;
  }

  UsageFacts usage(Instant from, Instant to, List<JobSpan.GpuRef> now) throws ApiException {
    try {
      return new UsageFacts(UsageReads.jobs(database, from, to), GpuSpans.read(database, from, to), now);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  Map<String, GpuHistory.Trace> gpuTraces() {
    var h = gpuHistory;
    return h == null ? Map.of() : h.traces();
  }

  Map<Long, ProcessView> processes(Collection<Long> pids) {
    var table = procs;
    return table == null ? Map.of() : ProcessViews.of(table, pids);
  }

  AdoptOutcome adopt(long pid, String name, String group, String key) throws ApiException {
    var a = adoptions;
    if (a == null)
      throw new ApiException("this daemon cannot adopt a process; restart it with 'gq daemon stop' (jobs keep running)");
    return a.adopt(pid, name, group, key);
  }
}
