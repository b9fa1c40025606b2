package dev.gq.cli;

import dev.gq.core.job.JobSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The jobs of a batch ({@code gq submit --batch FILE}), one per line: a JSON object (see
 * {@link BatchJson}) or a plain command split like a shell line without expansion (see
 * {@link ShellWords}). Blank lines and lines starting with {@code #} are skipped. The first bad
 * line refuses the whole batch, naming its line number, so a batch is submitted whole or not at
 * all. Pure but for checking {@code cwd} directories.
 */
final class BatchFile {
  private BatchFile() {}

  /** Line {@code n}'s spec (text as read, {@code raw}); null for a blank or {@code #} line. */
  static JobSpec spec(String raw, int n, BatchDefaults d) {
    String t = raw.strip();
    if (t.isEmpty() || t.startsWith("#")) return null;
    try {
      return t.startsWith("{") ? BatchJson.spec(t, d) : plain(t, d);
    } catch (IllegalArgumentException e) {
      throw new RefusedException("batch line " + n + ": " + e.getMessage() + "; nothing was submitted");
    }
  }

  /** A plain command line's spec; null when only a comment was left. */
  private static JobSpec plain(String line, BatchDefaults d) {
    List<String> argv = ShellWords.split(line);
    if (argv.isEmpty()) return null;
    RunCommand.checkLineCommand(argv);
    return d.scheduling().applyTo(new JobSpec(argv, d.cwd(), d.env(), d.gpus(), d.name(), d.group(), null));
  }
}
