package dev.gq.actors.socket;

import dev.gq.cli.ApiException;
import dev.gq.cli.ApiReplies.GpuReport;
import dev.gq.cli.ApiReplies.ProcessView;
import dev.gq.cli.GqApi;
import dev.gq.cli.WebControl;
import dev.gq.core.adopt.AdoptOutcome;
import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.report.JobSpan;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageRows;
import dev.gq.persistence.GpuSpans;
import dev.gq.persistence.UsageReads;
import dev.gq.web.LocalWeb;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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

  /**
   * Reads a report's rows to what {@code reader} answers, one at a time, the GPUs seen now being
   * {@code gpus}: first counts them and finds the first use (a cheap pass in SQLite), charges them
   * when the caller keeps them ({@code held}), then streams the GPU spans in order of start and the
   * jobs, each read on a connection of its own.
   */
  void usage(Instant from, Instant to, boolean held, GpuReport gpus, Function<UsageFacts, UsageRows> reader)
      throws ApiException {
    if (database == null)
      throw new ApiException("this daemon cannot report usage; restart it with 'gq daemon stop' (jobs keep running)");
    List<JobSpan.GpuRef> now = gpus.gpus().stream().map(g -> new JobSpan.GpuRef(g.uuid(), g.index(), g.totalMiB())).toList();
    try {
      UsageReads.Extent jobs = UsageReads.extent(database, from, to);
      UsageReads.Extent spans = GpuSpans.extent(database, from, to);
      if (held) AnswerCharges.plotRows(jobs.rows() + spans.rows(), AnswerCharges.WAIT_MILLIS);
      UsageRows rows = reader.apply(new UsageFacts(earlier(jobs.first(), spans.first()), now));
      GpuSpans.read(database, from, to, rows::span);
      UsageReads.jobs(database, from, to, rows::job);
    } catch (SQLException e) {
      throw HistoryRequests.failed(e);
    }
  }

  private static Instant earlier(Instant a, Instant b) {
    return a == null || (b != null && b.isBefore(a)) ? b : a;
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
