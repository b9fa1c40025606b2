package dev.gq.cli;

import dev.gq.api.GqApi;
import dev.gq.core.job.JobSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The jobs of a batch ({@code gq submit --batch FILE}), one per line: a JSON object (see
 * {@link BatchJson}) or a plain command split like a shell line without expansion (see
 * {@link ShellWords}). Blank lines and lines starting with {@code #} are skipped. The first bad
 * line refuses the whole batch, naming its line number, so a batch is submitted whole or not at
 * all. Pure but for checking {@code cwd} directories.
 */
final class BatchFile {
  private BatchFile() {}

  static List<GqApi.BatchLine> parse(String text, BatchDefaults d) {
    List<GqApi.BatchLine> out = new ArrayList<>();
    int n = 0;
    for (String raw : (Iterable<String>) text.lines()::iterator) {
      n++;
      String t = raw.strip();
      if (t.isEmpty() || t.startsWith("#")) continue;
      try {
        JobSpec spec = t.startsWith("{") ? BatchJson.spec(t, d) : plain(t, d);
        if (spec != null) out.add(new GqApi.BatchLine(n, spec));
      } catch (IllegalArgumentException e) {
        throw new RefusedException("batch line " + n + ": " + e.getMessage() + "; nothing was submitted");
      }
    }
    return out;
  }

  /** A plain command line's spec; null when only a comment was left. */
  private static JobSpec plain(String line, BatchDefaults d) {
    List<String> argv = ShellWords.split(line);
    if (argv.isEmpty()) return null;
    RunCommand.checkLineCommand(argv);
    return d.scheduling().applyTo(new JobSpec(argv, d.cwd(), d.env(), d.gpus(), d.name(), d.group(), null));
  }
}
