package dev.gq.core.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code #SBATCH} lines of a batch script, as sbatch itself reads them: from the top, through
 * comments and blank lines, up to the first command. Pure.
 */
public final class SbatchLines {
  private SbatchLines() {}

  /** The lines, unchanged, in order; none when {@code script} has none before its first command. */
  public static List<String> of(String script) {
    List<String> out = new ArrayList<>();
    for (String line : script.split("\n", -1)) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("#!")) continue;
      if (!t.startsWith("#")) break;
      if (t.startsWith("#SBATCH")) out.add(line.stripTrailing());
    }
    return out;
  }
}
