package dev.gq.core.ledger;

import dev.gq.core.job.Durations;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.PrintableText;

/**
 * Checks a job spec the daemon is asked to store, whoever sent it: a non-empty command without NUL
 * bytes, a GPU count of at least zero, names, groups and keys that are one printable line (see
 * {@link PrintableText}), a
 * bounded number of retries and dependencies, and a time limit of at least a second.
 * Returns the one line to show, or null when the spec is fine.
 */
public final class SpecRules {
  public static final int MAX_LABEL = 200;
  public static final int MAX_RETRIES = 100;
  public static final int MAX_DEPENDENCIES = 1000;

  private SpecRules() {}

  public static String check(JobSpec s) {
    CommandFault fault = CommandFault.of(s.argv());
    if (fault != null) return fault.message();
    if (s.gpus() < 0) return "the GPU count must be 0 or more, not " + s.gpus();
    if (s.cwd() == null || s.cwd().isEmpty()) return "the working directory is missing";
    String bad = label("name", s.name());
    if (bad == null) bad = label("group", s.group());
    if (bad == null) bad = label("key", s.key());
    if (bad == null) bad = sweepOptions(s);
    if (bad == null) bad = gpuNeed(s);
    return bad;
  }

  /** What each GPU must be: only for a job that asks for GPUs, and within bounds. */
  static String gpuNeed(JobSpec s) {
    var need = s.gpuNeed();
    if (need == null) return null;
    if (s.gpus() == 0)
      return (need.share() ? "--share and --per-gpu say how the job shares its GPUs"
          : "--vram and --gpu-type say what each GPU must be") + ", and this job asks for none (-g 0); leave them out or ask for -g 1 or more";
    if (need.vramMiB() < 0 || need.vramMiB() > GpuNeed.MAX_MIB) return "--vram must be from 1M to 4TiB";
    return need.shareProblem();
  }

  /** The dependencies, automatic retries and time limit. */
  static String sweepOptions(JobSpec s) {
    String r = retries(s.retries());
    if (r != null) return r;
    if (s.timeLimit() != null && (s.timeLimit().isNegative() || s.timeLimit().toSeconds() < 1))
      return "the time limit must be at least 1 second; give it like 90s, 45m, 2h or 1d";
    if (s.timeLimit() != null && s.timeLimit().compareTo(Durations.LONGEST) > 0)
      return "the time limit must be at most " + Durations.days(Durations.LONGEST) + ", not " + Durations.format(s.timeLimit());
    String p = priority(s.priority());
    if (p != null) return p;
    if (s.after().size() > MAX_DEPENDENCIES)
      return "a job may wait for at most " + MAX_DEPENDENCIES + " jobs, not " + s.after().size();
    for (var d : s.after()) if (d == null || d.jobId() < 1) return "--after and --after-ok take job ids (1 or more)";
    return null;
  }

  /** Why a count of automatic retries is out of range, or null. */
  public static String retries(int n) {
    return retriesInRange(n) ? null : "--retries must be between 0 and " + MAX_RETRIES + ", not " + n;
  }

  /** Whether {@code n} automatic retries are allowed: 0 to {@value #MAX_RETRIES}. */
  public static boolean retriesInRange(long n) {
    return n >= 0 && n <= MAX_RETRIES;
  }

  /** Whether {@code p} is a priority: {@value JobSpec#MIN_PRIORITY} to {@value JobSpec#MAX_PRIORITY}. */
  public static boolean priorityInRange(long p) {
    return p >= JobSpec.MIN_PRIORITY && p <= JobSpec.MAX_PRIORITY;
  }

  /** Why a priority is out of range, or null. */
  public static String priority(int p) {
    if (!priorityInRange(p))
      return "--priority must be between " + JobSpec.MIN_PRIORITY + " and " + JobSpec.MAX_PRIORITY + ", not " + p;
    return null;
  }

  /** Checks one label the daemon is asked to store ("name", "group", "key"); null when fine or absent. */
  public static String label(String what, String v) {
    return v == null ? null : labelProblem("the " + what, v);
  }

  /**
   * The one rule for a label (a job's name, group or key, a drain's reason): not empty or blank, at
   * most {@value #MAX_LABEL} characters, one printable line ({@link PrintableText}). Returns the
   * problem worded with {@code subject} as the caller names the text ("the group", "--group",
   * "GQ_GROUP", "the group on line 3"), or null when it is fine.
   */
  public static String labelProblem(String subject, String v) {
    if (v.isEmpty()) return subject + " must not be empty";
    if (v.isBlank()) return subject + " must not be blank";
    if (v.length() > MAX_LABEL) return subject + " must be at most " + MAX_LABEL + " characters (it has " + v.length() + ")";
    String hidden = PrintableText.problem(v);
    return hidden == null ? null : subject + " " + hidden;
  }
}
