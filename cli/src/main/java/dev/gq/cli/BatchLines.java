package dev.gq.cli;

import dev.gq.api.GqApi;
import dev.gq.core.job.JobSpec;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A batch's jobs in order ({@link BatchFile}), every line checked when read from the file, kept as
 * the text of its line and parsed again whenever it is read: a batch of 100,000 lines is queued a
 * part at a time, and its specs parsed all at once took about 55 MiB of the daemon's heap until its
 * last part was stored. Each spec read is then changed by the batch's changes (its venv, its
 * cluster), in order.
 */
final class BatchLines extends AbstractList<GqApi.BatchLine> {
  private final String text;
  private final int[] numbers;
  private final int[] from;
  private final int[] to;
  /** Each job's group, for the notes after the submit (a change never moves a job to another group). */
  private final String[] groups;
  private final BatchDefaults d;
  private final List<UnaryOperator<JobSpec>> changes;

  private BatchLines(String text, int[] numbers, int[] from, int[] to, String[] groups, BatchDefaults d,
      List<UnaryOperator<JobSpec>> changes) {
    this.text = text;
    this.numbers = numbers;
    this.from = from;
    this.to = to;
    this.groups = groups;
    this.d = d;
    this.changes = changes;
  }

  /** The jobs of {@code text}, each line checked; the first bad one refuses the batch, naming its line. */
  static BatchLines of(String text, BatchDefaults d) {
    List<int[]> at = new ArrayList<>();
    List<String> groups = new ArrayList<>();
    int n = 0;
    // the lines of String.lines(): ended by \n, \r or \r\n, or by the end of a text not ended so
    for (int i = 0, len = text.length(); i < len; ) {
      int start = i;
      while (i < len && text.charAt(i) != '\n' && text.charAt(i) != '\r') i++;
      int end = i;
      i += i + 1 < len && text.charAt(i) == '\r' && text.charAt(i + 1) == '\n' ? 2 : 1;
      n++;
      JobSpec s = BatchFile.spec(text.substring(start, end), n, d);
      if (s == null) continue;
      at.add(new int[] {n, start, end});
      groups.add(s.group());
    }
    int[] numbers = new int[at.size()], from = new int[at.size()], to = new int[at.size()];
    for (int i = 0; i < at.size(); i++) {
      numbers[i] = at.get(i)[0];
      from[i] = at.get(i)[1];
      to[i] = at.get(i)[2];
    }
    return new BatchLines(text, numbers, from, to, groups.toArray(String[]::new), d, List.of());
  }

  @Override public GqApi.BatchLine get(int i) {
    JobSpec s = BatchFile.spec(text.substring(from[i], to[i]), numbers[i], d);
    for (UnaryOperator<JobSpec> c : changes) s = c.apply(s);
    return new GqApi.BatchLine(numbers[i], s);
  }

  @Override public int size() {
    return numbers.length;
  }

  /** Job {@code i}'s line number. */
  int line(int i) {
    return numbers[i];
  }

  /** Job {@code i}'s group. */
  String group(int i) {
    return groups[i];
  }

  /**
   * These jobs, each changed by {@code f} too when read. When {@code f} may refuse a job, it is
   * tried on every job now, so the batch is refused before any of it is queued; one that cannot
   * is left to the reading.
   */
  BatchLines changedBy(UnaryOperator<JobSpec> f, boolean mayRefuse) {
    List<UnaryOperator<JobSpec>> more = new ArrayList<>(changes);
    more.add(f);
    BatchLines out = new BatchLines(text, numbers, from, to, groups, d, List.copyOf(more));
    if (mayRefuse) for (int i = 0; i < out.size(); i++) out.get(i);
    return out;
  }
}
