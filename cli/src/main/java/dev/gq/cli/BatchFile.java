package dev.gq.cli;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.CommandFault;
import java.nio.file.Path;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The jobs of a batch ({@code gq submit --batch FILE}), one per line: a JSON object (see
 * {@link BatchJson}) or a plain command split like a shell line without expansion (see
 * {@link ShellWords}). Blank lines and lines starting with {@code #} are skipped. The first bad
 * line refuses the whole batch, naming its line number, so a batch is submitted whole or not at
 * all. Pure but for checking {@code cwd} directories.
 */
final class BatchFile {
  /** What a line does not say: the command line's options, the caller's directory and environment. */
  record Defaults(int gpus, String name, String group, String cwd, Path callerDir, Map<String, String> env,
      Scheduling scheduling) {
    Defaults {
      env = Map.copyOf(env);
    }
  }

  private BatchFile() {}

  /**
   * The jobs of {@code text}, every line checked now. The lines are kept as text and parsed again
   * when read: a batch of 100,000 lines is queued a part at a time, and its specs parsed all at
   * once took about 55 MiB of the daemon's heap until the last part was stored.
   */
  static Lines parse(String text, Defaults d) {
    List<int[]> at = new ArrayList<>();
    int n = 0;
    // the lines of String.lines(): ended by \n, \r or \r\n, or by the end of a text not ended so
    for (int i = 0, len = text.length(); i < len; ) {
      int start = i;
      while (i < len && text.charAt(i) != '\n' && text.charAt(i) != '\r') i++;
      int end = i;
      i += i + 1 < len && text.charAt(i) == '\r' && text.charAt(i + 1) == '\n' ? 2 : 1;
      n++;
      if (spec(text.substring(start, end), n, d) != null) at.add(new int[] {n, start, end});
    }
    int[] numbers = new int[at.size()], from = new int[at.size()], to = new int[at.size()];
    for (int i = 0; i < at.size(); i++) {
      numbers[i] = at.get(i)[0];
      from[i] = at.get(i)[1];
      to[i] = at.get(i)[2];
    }
    return new Lines(text, numbers, from, to, d, UnaryOperator.identity());
  }

  /** Line {@code n}'s spec; null for a blank or {@code #} line. */
  private static JobSpec spec(String raw, int n, Defaults d) {
    String t = raw.strip();
    if (t.isEmpty() || t.startsWith("#")) return null;
    try {
      return t.startsWith("{") ? BatchJson.spec(t, d) : plain(t, d);
    } catch (IllegalArgumentException e) {
      throw new RefusedException("batch line " + n + ": " + e.getMessage() + "; nothing was submitted");
    }
  }

  /** A batch's jobs in order, each parsed from its line when read, then changed by {@code then}. */
  static final class Lines extends AbstractList<GqApi.BatchLine> {
    private final String text;
    private final int[] numbers;
    private final int[] from;
    private final int[] to;
    private final Defaults d;
    private final UnaryOperator<JobSpec> then;

    private Lines(String text, int[] numbers, int[] from, int[] to, Defaults d, UnaryOperator<JobSpec> then) {
      this.text = text;
      this.numbers = numbers;
      this.from = from;
      this.to = to;
      this.d = d;
      this.then = then;
    }

    @Override public GqApi.BatchLine get(int i) {
      return new GqApi.BatchLine(numbers[i], then.apply(spec(text.substring(from[i], to[i]), numbers[i], d)));
    }

    @Override public int size() {
      return numbers.length;
    }

    /** These lines, each spec changed by {@code f} too; {@code f} is tried on every line now, so it refuses here if it does. */
    Lines map(UnaryOperator<JobSpec> f) {
      Lines out = new Lines(text, numbers, from, to, d, s -> f.apply(then.apply(s)));
      for (int i = 0; i < out.size(); i++) out.get(i);
      return out;
    }
  }

  /** A plain command line's spec; null when only a comment was left. */
  private static JobSpec plain(String line, Defaults d) {
    List<String> argv = ShellWords.split(line);
    if (argv.isEmpty()) return null;
    checkCommand(argv);
    return d.scheduling().applyTo(new JobSpec(argv, d.cwd(), d.env(), d.gpus(), d.name(), d.group(), null));
  }

  /** Checks a line's command by the one rule for commands, in the command line's words. */
  static void checkCommand(List<String> argv) {
    CommandFault fault = CommandFault.of(argv);
    if (fault != null) throw new IllegalArgumentException(RunCommand.problem(fault));
  }
}
