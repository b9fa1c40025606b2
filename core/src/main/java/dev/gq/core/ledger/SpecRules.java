package dev.gq.core.ledger;

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
    if (s.argv().isEmpty() || s.argv().get(0).isEmpty())
      return "the command is empty; give a command after gq's options, e.g. gq -g 1 python train.py";
    for (String a : s.argv())
      if (a.indexOf('\0') >= 0) return "an argument of the command contains a NUL byte, which no program can receive";
    if (s.gpus() < 0) return "the GPU count must be 0 or more, not " + s.gpus();
    if (s.cwd() == null || s.cwd().isEmpty()) return "the working directory is missing";
    String bad = label("name", s.name());
    if (bad == null) bad = label("group", s.group());
    if (bad == null) bad = label("key", s.key());
    if (bad == null) bad = sweepOptions(s);
    return bad;
  }

  /** The dependencies, automatic retries and time limit. */
  static String sweepOptions(JobSpec s) {
    if (s.retries() < 0 || s.retries() > MAX_RETRIES)
      return "--retries must be between 0 and " + MAX_RETRIES + ", not " + s.retries();
    if (s.timeLimit() != null && (s.timeLimit().isNegative() || s.timeLimit().toSeconds() < 1))
      return "the time limit must be at least 1 second; give it like 90s, 45m, 2h or 1d";
    String p = priority(s.priority());
    if (p != null) return p;
    if (s.after().size() > MAX_DEPENDENCIES)
      return "a job may wait for at most " + MAX_DEPENDENCIES + " jobs, not " + s.after().size();
    for (var d : s.after()) if (d == null || d.jobId() < 1) return "--after and --after-ok take job ids (1 or more)";
    return null;
  }

  /** Why a priority is out of range, or null. */
  public static String priority(int p) {
    if (p < JobSpec.MIN_PRIORITY || p > JobSpec.MAX_PRIORITY)
      return "--priority must be between " + JobSpec.MIN_PRIORITY + " and " + JobSpec.MAX_PRIORITY + ", not " + p;
    return null;
  }

  /** Checks one label (name, group or key); null when fine or absent. */
  public static String label(String what, String v) {
    if (v == null) return null;
    if (v.isBlank()) return "the " + what + " must not be empty or blank";
    if (v.length() > MAX_LABEL) return "the " + what + " is " + v.length() + " characters long; use at most " + MAX_LABEL;
    String hidden = PrintableText.problem(v);
    return hidden == null ? null : "the " + what + " " + hidden;
  }
}
