package dev.gq.core.cluster;

import java.time.Duration;

/** Words and values as a bash script and sbatch take them. Pure. */
final class SlurmShell {
  private SlurmShell() {}

  /** {@code s} as one bash word in single quotes. */
  static String quote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }

  /** A time limit as sbatch's {@code --time} takes it, D-HH:MM:SS, rounded up to whole seconds. */
  static String time(Duration d) {
    long s = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
    return String.format("%d-%02d:%02d:%02d", s / 86_400, s / 3_600 % 24, s / 60 % 60, s % 60);
  }

  /** Whether {@code name} can be an exported variable's name in bash. */
  static boolean variable(String name) {
    return name.matches("[A-Za-z_][A-Za-z0-9_]*");
  }
}
