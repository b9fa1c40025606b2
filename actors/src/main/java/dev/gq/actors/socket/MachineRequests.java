package dev.gq.actors.socket;

import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GpuReport;
import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.api.GqApi;
import dev.gq.api.WebControl;
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

  /**
   * Reads a report's rows to what {@code reader} answers, one at a time, the GPUs seen now being
   * {@code gpus}: first counts them and finds the first use (a cheap pass in SQLite), charges them
   * when the caller keeps them ({@code held}), then streams the GPU spans in order of start and the
   * jobs, each read on a connection of its own.
   */
  void usage(Instant from, Instant to, boolean held, GpuReport gpus, Function<UsageFacts, UsageRows> reader)
      throws ApiException {
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
    return gpuHistory.traces();
  }

  Map<Long, ProcessView> processes(Collection<Long> pids) {
    return ProcessViews.of(procs, pids);
  }

  AdoptOutcome adopt(long pid, String name, String group, String key) throws ApiException {
    return adoptions.adopt(pid, name, group, key);
  }
}
