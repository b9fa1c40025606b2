package dev.gq.cli;

import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A column of the {@code gq ps} table, by the name {@code --format} takes: its header, the
 * narrowest a terminal may cut it to (0: never cut), and its cell for one job. The cells are
 * short by design: WAIT is the brief wait reason (the whole one is in {@code gq show}), ELAPSED the
 * running time so far or in all (squeue's M:SS, H:MM:SS, D-HH:MM:SS), PROGRESS a running job's
 * estimate ({@code 53% ETA 1h24m}; blank when unknown), EXIT the exit code, POS a waiting job's
 * place in the queue (1 starts next; squeue's order: priority, then age), NOTE what gq notices about a
 * running job without acting on it ({@code idle 45m}, {@code GPU 1 unwell}).
 */
enum JobColumn {
  ID("JOB", 0),
  STATE("STATE", 0),
  POS("POS", 0),
  PRIORITY("PRIORITY", 0),
  GPUS("GPUS", 0),
  PID("PID", 0),
  GROUP("GROUP", 6),
  KEY("KEY", 6),
  NAME("NAME", 8),
  WAIT("WAIT", 14),
  ELAPSED("ELAPSED", 0),
  PROGRESS("PROGRESS", 0),
  NOTE("NOTE", 0),
  EXIT("EXIT", 0),
  COMMAND("COMMAND", 12);

  final String header;
  final int min;

  JobColumn(String header, int min) {
    this.header = header;
    this.min = min;
  }

  /** The name {@code --format} takes. */
  String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The columns named in {@code list} ("id,state,gpus"), in that order; a usage error names the valid ones. */
  static List<JobColumn> parse(String list) {
    List<JobColumn> out = new ArrayList<>();
    for (String word : list.split(",", -1)) {
      String w = word.strip().toLowerCase(Locale.ROOT);
      JobColumn c = w.equals("job") ? ID : w.equals("position") ? POS : w.equals("prio") ? PRIORITY : Arrays.stream(values()).filter(v -> v.label().equals(w)).findFirst().orElse(null);
      if (c == null) {
        String what = w.isEmpty() ? "an empty column name" : "unknown column '" + word.strip() + "'";
        throw new UsageException(what + " in --format; the columns are " + names());
      }
      out.add(c);
    }
    return out;
  }

  static String names() {
    return Arrays.stream(values()).map(JobColumn::label).collect(Collectors.joining(","));
  }

  /**
   * The columns shown without {@code --format}: JOB, STATE, GPUS, NAME and COMMAND always; POS and
   * PRIORITY when a listed waiting job has a priority other than 0 (then the queue is not in id
   * order); GROUP
   * (unless the list is of one group), WAIT, ELAPSED and EXIT when a listed job has something to
   * show there ({@code all}: as if each did, for a list printed in pages, whose later pages the
   * choice cannot see); PROGRESS when a listed running job has an estimate in {@code progress}.
   */
  static List<JobColumn> defaults(List<Job> jobs, boolean all, boolean oneGroup) {
    return defaults(jobs, all, oneGroup, Map.of());
  }

  static List<JobColumn> defaults(List<Job> jobs, boolean all, boolean oneGroup, Map<Long, Estimate> progress) {
    return defaults(jobs, all, oneGroup, progress, Map.of());
  }

  /** As above, with NOTE when a listed job has a note in {@code notes}. */
  static List<JobColumn> defaults(List<Job> jobs, boolean all, boolean oneGroup, Map<Long, Estimate> progress,
      Map<Long, String> notes) {
    List<JobColumn> c = new ArrayList<>(List.of(ID, STATE));
    if (jobs.stream().anyMatch(j -> j.state() == JobState.WAITING && j.spec().priority() != 0)) {
      c.add(POS);
      c.add(PRIORITY);
    }
    c.add(GPUS);
    if (!oneGroup && (all || jobs.stream().anyMatch(j -> j.spec().group() != null))) c.add(GROUP);
    c.add(NAME);
    if (jobs.stream().anyMatch(j -> j.state() == JobState.WAITING)) c.add(WAIT);
    if (all || jobs.stream().anyMatch(j -> j.startTime() != null)) c.add(ELAPSED);
    if (jobs.stream().anyMatch(j -> !progress(j, progress).isEmpty())) c.add(PROGRESS);
    if (jobs.stream().anyMatch(j -> notes.containsKey(j.id()))) c.add(NOTE);
    if (all || jobs.stream().anyMatch(j -> j.exitCode() != null)) c.add(EXIT);
    c.add(COMMAND);
    return c;
  }

  String cell(Job job, JobTableContext ctx) {
    return switch (this) {
      case ID -> String.valueOf(job.id());
      case STATE -> ctx.state(job);
      case POS -> ctx.positions().containsKey(job.id()) ? String.valueOf(ctx.positions().get(job.id())) : "-";
      case PRIORITY -> String.valueOf(job.spec().priority());
      case GPUS -> gpus(job);
      case PID -> job.pid() == null ? "-" : String.valueOf(job.pid());
      case GROUP -> orDash(job.spec().group());
      case KEY -> orDash(job.spec().key());
      case NAME -> name(job);
      case WAIT -> wait(job, ctx);
      case ELAPSED -> elapsed(job, ctx.now());
      case PROGRESS -> progress(job, ctx.progress());
      case NOTE -> ctx.notes().getOrDefault(job.id(), "-");
      case EXIT -> job.exitCode() == null ? "-" : String.valueOf(job.exitCode());
      case COMMAND -> command(job.spec().argv());
    };
  }

  /**
   * How many characters this column's cell for {@code job} takes as the table shows it (escaped,
   * {@link PrintableText#escape}): the numbers' and GPU lists' counted without writing them.
   */
  int width(Job job, JobTableContext ctx) {
    return switch (this) {
      case ID -> digits(job.id());
      case STATE -> ctx.state(job).length();
      case PRIORITY -> digits(job.spec().priority());
      case GPUS -> gpusWidth(job);
      case PID -> job.pid() == null ? 1 : digits(job.pid());
      case EXIT -> job.exitCode() == null ? 1 : digits(job.exitCode());
      default -> PrintableText.escape(cell(job, ctx)).length();
    };
  }

  /** How many characters {@code v} takes in decimal, its sign included. */
  static int digits(long v) {
    if (v < 0) return v == Long.MIN_VALUE ? 20 : 1 + digits(-v);
    int n = 1;
    for (long t = v; t >= 10; t /= 10) n++;
    return n;
  }

  /** The length of {@link #gpus}. */
  private static int gpusWidth(Job job) {
    if (job.gpus().isEmpty()) return job.spec().gpus() == 0 ? 1 : 2 + digits(job.spec().gpus());
    int n = job.gpus().size() - 1;
    for (GpuSlot s : job.gpus()) n += digits(s.index());
    return n;
  }

  /**
   * The NAME cell: the job's name; for a job without one, its key when it has one (the cells of a
   * sweep of {@code uv run ...} are told apart by it), else the command's file name.
   */
  static String name(Job job) {
    if (job.spec().name() == null && job.spec().key() != null) return job.spec().key();
    return job.displayName();
  }

  /**
   * The NAME cell when COMMAND does not fit on the line: the job's name; for a job without one, its
   * key when it has one, else its command's arguments after the program ({@code train.py --lr 0.1}),
   * so that the cells of a sweep are told apart; the program's name when it has no arguments.
   */
  static String tellingName(Job job) {
    List<String> argv = job.spec().argv();
    if (job.spec().name() != null || job.spec().key() != null || argv.size() < 2) return name(job);
    return ShellQuote.join(argv.subList(1, argv.size()));
  }

  /**
   * The COMMAND cell: the command as the user typed it. A first word that gq made a path (a
   * project's {@code .venv/bin/python}) or that was typed as one in a {@code bin} directory shows
   * as its file name; {@code gq show} has the whole command and the venv.
   */
  static String command(List<String> argv) {
    if (argv.isEmpty()) return "";
    String first = argv.get(0);
    int slash = first.lastIndexOf('/');
    boolean inBin = first.startsWith("/") && slash > 0 && first.substring(0, slash).endsWith("/bin");
    if (!inBin) return ShellQuote.join(argv);
    List<String> shown = new ArrayList<>(argv);
    shown.set(0, first.substring(slash + 1));
    return ShellQuote.join(shown);
  }

  /** The indices a job holds or held, else the count it asks for in parentheses ("-" for none). */
  static String gpus(Job job) {
    if (!job.gpus().isEmpty()) {
      return job.gpus().stream()
          .sorted(Comparator.comparingInt(GpuSlot::index))
          .map(s -> String.valueOf(s.index()))
          .collect(Collectors.joining(","));
    }
    return job.spec().gpus() == 0 ? "-" : "(" + job.spec().gpus() + ")";
  }

  private static String wait(Job job, JobTableContext ctx) {
    if (job.state() != JobState.WAITING) return "-";
    WaitReason reason = ctx.waitReasons().get(job.id());
    return reason == null || reason.brief().isBlank() ? "-" : reason.brief();
  }

  /** How long the job ran: until {@code now} while it runs, until its end once ended; "-" before it started. */
  static String elapsed(Job job, Instant now) {
    if (job.startTime() == null) return "-";
    Instant until = job.endTime() != null ? job.endTime() : now;
    return clock(Duration.between(job.startTime(), until));
  }

  /** squeue's form of a duration: 0:05, 12:34, 1:02:03, 2-01:02:03. */
  static String clock(Duration d) {
    long s = Math.max(0, d.getSeconds());
    long days = s / 86400;
    long h = s / 3600 % 24;
    long m = s / 60 % 60;
    long sec = s % 60;
    // written out rather than String.format, which parses its pattern each time: a list has a clock a row
    StringBuilder b = new StringBuilder(16);
    if (days > 0) twoDigits(b.append(days).append('-'), h).append(':');
    else if (h > 0) b.append(h).append(':');
    if (days > 0 || h > 0) twoDigits(b, m);
    else b.append(m);
    return twoDigits(b.append(':'), sec).toString();
  }

  private static StringBuilder twoDigits(StringBuilder b, long v) {
    return (v < 10 ? b.append('0') : b).append(v);
  }

  /** The PROGRESS cell: a running job's estimate, blank when it has none. */
  static String progress(Job job, Map<Long, Estimate> progress) {
    Estimate e = job.state() == JobState.RUNNING || job.state() == JobState.PREEMPTING ? progress.get(job.id()) : null;
    return e == null ? "" : e.column();
  }

  private static String orDash(String s) {
    return s == null || s.isEmpty() ? "-" : s;
  }
}
