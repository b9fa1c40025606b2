package dev.gq.core.cluster;

import dev.gq.core.launch.ExitRecord;
import java.util.Map;

/**
 * One look at a Slurm cluster: its profile, why it did not answer ({@code error}, null when it did),
 * the jobs squeue listed (by Slurm id), and the exit records the jobs' scripts wrote (by gq id).
 */
public record ClusterObservation(String profile, String error, Map<String, SlurmJob> jobs, Map<Long, ExitRecord> exits) {
  public ClusterObservation {
    jobs = jobs == null ? Map.of() : Map.copyOf(jobs);
    exits = exits == null ? Map.of() : Map.copyOf(exits);
  }
}
