package dev.gq.core.ledger;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.LedgerEvent.*;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How one event changes one job: the single definition used by the Ledger (live jobs) and by the
 * history (every job), so both always agree. {@code before} is null only for JobSubmitted.
 */
public final class JobTransitions {
  private JobTransitions() {}

  private static JobSpec changed(JobSpec s, JobChanged e) {
    if (e.gpus() != null) s = s.withGpus(e.gpus());
    if (e.priority() != null) s = s.withPriority(e.priority());
    if (e.timeLimitSet()) s = s.withTimeLimit(e.timeLimit());
    if (!e.envSet().isEmpty() || !e.envUnset().isEmpty()) {
      Map<String, String> env = new HashMap<>(s.env());
      e.envUnset().forEach(env::remove);
      env.putAll(e.envSet());
      s = s.withEnv(env);
    }
    return s;
  }

  public static Job next(Job before, LedgerEvent.JobEvent event) {
    return switch (event) {
      case JobSubmitted e -> new Job(e.jobId(), e.spec(), JobState.WAITING, e.at(), null, null, List.of(), null,
          null, e.logPath(), null, e.tag(), e.retryOf());
      case JobAdopted e -> new Job(e.jobId(), e.spec(), JobState.RUNNING, e.at(), e.startTime(), null, e.gpus(),
          e.identity(), null, e.logPath(), null, e.tag(), null);
      case JobReserved e -> before.reserved(e.gpus(), e.at());
      case JobLaunched e -> before.launched(e.identity());
      case JobLaunchFailed e -> before.ended(JobState.FAILED, null, e.reason(), e.at());
      case JobCancelRequested e -> before.withState(JobState.CANCELLING);
      case JobPreemptRequested e -> before.withState(JobState.PREEMPTING);
      case JobCancelled e -> before.ended(JobState.CANCELLED, null, e.reason(), e.at());
      case JobExited e -> EndStates.exited(before, e);
      case JobTimedOut e -> before.ended(JobState.TIMEOUT, e.exitCode(), e.reason(), e.at());
      case JobInterrupted e -> before.ended(JobState.INTERRUPTED, null, e.reason(), e.at());
      case JobOrphaned e -> before.ended(JobState.ORPHANED, null, e.reason(), e.at());
      case JobRequeued e -> EndStates.requeued(before);
      case JobRecovered e -> before.recovered();
      case JobSentToCluster e -> before.sentAs(e.clusterId());
      case JobClusterStarted e -> before.clusterStarted(e.at());
      case JobChanged e -> before.withSpec(changed(before.spec(), e));
    };
  }
}
