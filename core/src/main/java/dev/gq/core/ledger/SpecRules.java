package dev.gq.core.ledger;

import dev.gq.core.job.JobSpec;

/**
 * Checks a job spec the daemon is asked to store, whoever sent it: a non-empty command without NUL
 * bytes, a GPU count of at least zero, and names, groups and keys that are one printable line.
 * Returns the one line to show, or null when the spec is fine.
 */
public final class SpecRules {
  public static final int MAX_LABEL = 200;

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
    return bad;
  }

  /** Checks one label (name, group or key); null when fine or absent. */
  public static String label(String what, String v) {
    if (v == null) return null;
    if (v.isBlank()) return "the " + what + " must not be empty or blank";
    if (v.length() > MAX_LABEL) return "the " + what + " is " + v.length() + " characters long; use at most " + MAX_LABEL;
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < 32 || c == 127) return "the " + what + " must not contain control characters";
    }
    return null;
  }
}
