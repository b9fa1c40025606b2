package dev.gq.core.cluster;

/**
 * Where a job runs, as {@code --to} names it: {@code local} (this machine), {@code slurm} (the Slurm
 * profile {@value #DEFAULT_PROFILE}) or {@code slurm:PROFILE}. Pure.
 */
public final class ClusterTarget {
  private ClusterTarget() {}

  /** The profile {@code --to slurm} uses. */
  public static final String DEFAULT_PROFILE = "default";

  /** The Slurm profile {@code text} names; null for this machine. A value gq cannot read is an {@link IllegalArgumentException} with the line to show. */
  public static String profile(String text) {
    String t = text == null ? "" : text.strip();
    if (t.equals("local")) return null;
    if (t.equals("slurm")) return DEFAULT_PROFILE;
    if (t.startsWith("slurm:") && validName(t.substring(6))) return t.substring(6);
    throw new IllegalArgumentException("invalid target '" + text + "' for --to; use local, slurm or slurm:PROFILE"
        + " (a profile name is letters, digits, '-' and '_')");
  }

  /** Whether {@code name} may name a profile: 1 to 64 letters, digits, '-' and '_'. */
  public static boolean validName(String name) {
    return name.matches("[A-Za-z0-9_-]{1,64}");
  }

  /** The {@code --to} value naming {@code profile} (null: this machine). */
  public static String text(String profile) {
    return profile == null ? "local" : DEFAULT_PROFILE.equals(profile) ? "slurm" : "slurm:" + profile;
  }
}
