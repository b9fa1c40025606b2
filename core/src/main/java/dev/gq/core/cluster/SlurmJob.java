package dev.gq.core.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One line of {@code squeue -h -r -t all -o '%i|%T|%r|%N'}: the Slurm job id (an array task:
 * {@code ARRAY_TASK}), its state, Slurm's reason and its node. Pure.
 */
public record SlurmJob(String id, String state, String reason, String node) {
  /** The squeue output format {@link #parse} reads. */
  public static final String FORMAT = "%i|%T|%r|%N";

  private static final Set<String> RUNNING = Set.of("RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "STOPPED",
      "SIGNALING", "STAGE_OUT", "RESIZING");
  private static final Set<String> ENDED = Set.of("COMPLETED", "FAILED", "TIMEOUT", "CANCELLED", "OUT_OF_MEMORY",
      "NODE_FAIL", "BOOT_FAIL", "DEADLINE", "PREEMPTED", "REVOKED", "SPECIAL_EXIT");

  public boolean running() {
    return RUNNING.contains(state);
  }

  public boolean ended() {
    return ENDED.contains(state);
  }

  /** Waiting in Slurm's queue (pending, requeued or held there). */
  public boolean pending() {
    return !running() && !ended();
  }

  /** Whether Slurm holds it ({@code scontrol hold}). */
  public boolean held() {
    return pending() && ("JobHeldUser".equals(reason) || "JobHeldAdmin".equals(reason));
  }

  /** squeue's lines by job id; lines that are not four fields are skipped. */
  public static Map<String, SlurmJob> parse(String out) {
    Map<String, SlurmJob> jobs = new LinkedHashMap<>();
    for (String line : out.split("\n")) {
      String[] f = line.strip().split("\\|", -1);
      if (f.length != 4 || f[0].isEmpty()) continue;
      jobs.put(f[0], new SlurmJob(f[0], f[1], f[2], f[3]));
    }
    return jobs;
  }
}
