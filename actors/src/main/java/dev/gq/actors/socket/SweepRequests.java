package dev.gq.actors.socket;

import dev.gq.api.ApiReplies.Retried;
import dev.gq.api.ApiReplies.RetryReport;
import dev.gq.api.ApiReplies.RetrySkip;
import dev.gq.api.ApiReplies;
import dev.gq.api.GqApi;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LineageFact;
import dev.gq.core.ledger.Retries;
import dev.gq.core.resume.Checkpoints;
import dev.gq.core.schedule.Request;
import dev.gq.host.resume.CheckpointFiles;
import dev.gq.persistence.JobHistory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the Scheduler needs from the history before it decides a request that names ended jobs
 * (submit with dependencies, batch submit, retry): the lineage facts of those jobs, and for a retry
 * the original jobs, skipping those that no longer exist or whose working directory is gone (the
 * checks that need I/O). Reads the history only; the ledger given is the Scheduler's view.
 */
final class SweepRequests {
  private final JobHistory jobHistory;

  SweepRequests(JobHistory jobHistory) {
    this.jobHistory = jobHistory;
  }

  /** The ids that the specs wait for. */
  static Set<Long> dependencies(Collection<JobSpec> specs) {
    Set<Long> ids = new LinkedHashSet<>();
    for (JobSpec s : specs) for (Dependency d : s.after()) ids.add(d.jobId());
    return ids;
  }

  /**
   * For each of {@code ids} in the history: its lineage and the newest attempt of it. Live jobs too:
   * one live when the request was read may end before the Scheduler decides, which then reads its
   * end in the ledger's recent ends and its lineage here.
   */
  Map<Long, LineageFact> facts(Collection<Long> ids) throws SQLException {
    List<Long> asked = ids.stream().distinct().toList();
    return asked.isEmpty() ? Map.of() : jobHistory.lineages(asked);
  }

  /**
   * The facts a retry of {@code ids} is decided on: each job that exists (live in {@code l}, else
   * read from the history), the ended ones whose working directory is gone, and the lineage facts of
   * the jobs named and of those they wait for. The Scheduler decides.
   */
  Request.Retry retry(Ledger l, List<Long> ids, Set<JobState> states, String group) throws SQLException {
    Map<Long, Job> found = new HashMap<>();
    Set<Long> cwdGone = new HashSet<>();
    for (long id : new LinkedHashSet<>(ids)) {
      Job live = l.live().get(id);
      var stored = live != null ? Optional.of(live) : jobHistory.job(id);
      if (stored.isEmpty()) continue;
      found.put(id, stored.get());
      if (live == null && !Files.isDirectory(Path.of(stored.get().spec().cwd()))) cwdGone.add(id);
    }
    Set<Long> named = new LinkedHashSet<>(found.keySet());
    named.addAll(dependencies(found.values().stream().map(Job::spec).toList()));
    return new Request.Retry(ids, found, cwdGone, states, group, facts(named));
  }

  /**
   * A resume's report: for each new attempt, the checkpoint given, or the newest complete one under
   * its original's checkpoint directory now (one listing each), and that directory.
   */
  static ApiReplies.ResumeReport resumed(RetryReport report, Map<Long, Job> found, String from) {
    Map<Long, String> seen = new HashMap<>();
    Map<Long, String> under = new HashMap<>();
    for (Retried r : report.retried()) {
      Job o = found.get(r.originalId());
      if (o == null) continue;
      if (from != null) {
        seen.put(r.newId(), from);
        continue;
      }
      under.put(r.newId(), String.valueOf(Checkpoints.root(o.spec().argv(), o.spec().cwd())));
      CheckpointFiles.newest(o.spec().argv(), o.spec().cwd())
          .ifPresent(f -> seen.put(r.newId(), f.dir().toString()));
    }
    return new ApiReplies.ResumeReport(report, seen, under);
  }

  /** The Scheduler's outcome as the API reports it. */
  static RetryReport report(Retries.Outcome o) {
    List<RetrySkip> skipped = o.skipped().stream().map(s -> new RetrySkip(s.id(), s.reason())).toList();
    List<Retried> retried = o.retried().stream().map(r -> new Retried(r.originalId(), r.newId())).toList();
    return new RetryReport(retried, skipped, o.released());
  }

  /** One batch outcome per line, numbered as the lines were. */
  static List<GqApi.BatchOutcome> outcomes(List<Integer> lines, List<Ledger.SubmitOutcome> os) {
    List<GqApi.BatchOutcome> out = new ArrayList<>(os.size());
    for (int i = 0; i < os.size(); i++) {
      var o = os.get(i);
      out.add(new GqApi.BatchOutcome(lines.get(i), o.jobId(), o.skipped(), o.state(), o.message(), o.queueing()));
    }
    return out;
  }

  /** The INTERRUPTED jobs that are the newest attempt of their lineage, oldest first ({@code gq recover}). */
  List<Long> interrupted() throws SQLException {
    var q = new JobQuery(List.of(), Set.of(JobState.INTERRUPTED), null, 0, true, 0, null);
    return jobHistory.jobs(q).stream().map(Job::id).sorted().toList();
  }
}
