package dev.gq.core.cluster;

import dev.gq.core.job.JobSpec;
import java.util.List;

/**
 * One gq job as Slurm gets it: its id, its whole spec (with its command), its log path and tag, and
 * the {@code #SBATCH} lines of its script, passed through as they are (empty when it has none).
 */
public record ClusterCell(long jobId, JobSpec spec, String logPath, String tag, List<String> sbatchLines) {
  public ClusterCell {
    sbatchLines = sbatchLines == null ? List.of() : List.copyOf(sbatchLines);
  }
}
