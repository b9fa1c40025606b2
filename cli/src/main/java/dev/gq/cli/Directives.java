package dev.gq.cli;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.Durations;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.Suggestions;
import dev.gq.core.ledger.SpecRules;
import dev.gq.core.resume.ResumeArgs;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code #gq} directives of a job script: lines {@code #gq --gpus=N}, {@code --name=TEXT},
 * {@code --group=TEXT}, {@code --key=TEXT}, {@code --time=DURATION}, {@code --retries=N}, {@code --priority=N},
 * {@code --after=JOB}, {@code --after-ok=JOB}, {@code --resume-arg=WORDS}, {@code --notify=EVENTS}, {@code --vram=SIZE}
 * and {@code --gpu-type=TYPE[,TYPE]}, each also with a
 * blank instead of the {@code =} as in {@code #SBATCH} lines (leading blanks allowed, values trimmed, a later
 * line wins; dependency lines add up, and take comma lists). Any other line starting with
 * {@code #gq} is refused naming its line (and the closest directive to a misspelt one), so a typo
 * never passes silently. {@code --gpus=0} means a
 * CPU-only job. Null fields were not given.
 */
record Directives(Integer gpus, String name, String group, String key, Scheduling scheduling) {
  private static final List<String> NAMES =
      List.of("gpus", "name", "group", "key", "time", "retries", "priority", "after", "after-ok", "resume-arg", "notify", "vram",
          "gpu-type", "per-gpu", "share");
  // "#gq --share" takes no value
  private static final Pattern FLAG = Pattern.compile("#gq[ \\t]+--share[ \\t]*");
  // "--gpus=2" and, as in #SBATCH lines, "--gpus 2"
  private static final Pattern LINE = Pattern.compile("#gq[ \\t]+--(" + String.join("|", NAMES) + ")(?:=|[ \\t]+)(.*)");
  private static final Pattern OPTION = Pattern.compile("#gq[ \\t]+(-[-\\w]*).*");

  static final Directives NONE = new Directives(null, null, null, null, Scheduling.NONE);

  /** Reads the directives of a script's text. */
  static Directives parse(String script) {
    List<String> lines = script.lines().toList();
    Directives d = NONE;
    for (int i = 0; i < lines.size(); i++) {
      String text = lines.get(i).strip();
      if (text.startsWith("#gq")) d = d.with(text, i + 1);
    }
    return d;
  }

  private Directives with(String text, int line) {
    if (FLAG.matcher(text).matches()) return with(scheduling.withNeed(GpuNeed.of(0, List.of(), true, 0)));
    Matcher m = LINE.matcher(text);
    if (!m.matches()) {
      Matcher o = OPTION.matcher(text);
      List<String> close = o.matches() ? Suggestions.closest(o.group(1), NAMES.stream().map(n -> "--" + n).toList()) : List.of();
      if (!close.isEmpty())
        throw new RefusedException("unknown #gq directive " + PrintableText.escape(o.group(1)) + " on line " + line
            + "; did you mean " + String.join(" or ", close) + "?");
      throw new RefusedException("unsupported or malformed #gq directive on line " + line + ": '" + PrintableText.escape(text)
          + "'; use #gq --gpus=N, --name=TEXT, --group=TEXT, --key=TEXT, --time=DURATION, --retries=N,"
          + " --priority=N, --after=JOB, --after-ok=JOB, --resume-arg=WORDS, --notify=EVENTS, --vram=SIZE, --gpu-type=TYPE, --share or --per-gpu=K");
    }
    String option = m.group(1);
    String value = m.group(2).strip();
    Scheduling s = scheduling;
    return switch (option) {
      case "gpus" -> new Directives(gpuCount(value, line), name, group, key, s);
      case "name" -> new Directives(gpus, label(option, value, line), group, key, s);
      case "group" -> new Directives(gpus, name, label(option, value, line), key, s);
      case "key" -> new Directives(gpus, name, group, label(option, value, line), s);
      case "time" -> with(new Scheduling(s.after(), s.retries(), time(value, line), s.priority(), s.begin(), s.resumeArg(), s.need()));
      case "retries" -> with(new Scheduling(s.after(), retries(value, line), s.time(), s.priority(), s.begin(), s.resumeArg(), s.need()));
      case "priority" -> with(new Scheduling(s.after(), s.retries(), s.time(), priority(value, line), s.begin(), s.resumeArg(), s.need()));
      case "resume-arg" -> with(resumeArg(s, value, line));
      case "vram" -> with(s.withNeed(vram(value, line)));
      case "gpu-type" -> with(s.withNeed(gpuType(value, line)));
      case "share" -> throw new RefusedException("#gq --share takes no value (line " + line + "); write it alone");
      case "per-gpu" -> with(s.withNeed(GpuNeed.of(0, List.of(), true, perGpu(value, line))));
      case "notify" -> { NotifyOption.checked(value, "line " + line); yield this; } // read by notify(script)
      default -> with(new Scheduling(plus(s.after(), value, option.equals("after-ok"), line), s.retries(), s.time(),
          s.priority(), s.begin(), s.resumeArg(), s.need()));
    };
  }

  /** The events of the script's last {@code #gq --notify=EVENTS} line; null when it has none. */
  static String notify(String script) {
    String found = null;
    for (String l : script.lines().toList()) {
      Matcher m = LINE.matcher(l.strip());
      if (m.matches() && m.group(1).equals("notify")) found = m.group(2).strip();
    }
    return found;
  }

  private Directives with(Scheduling s) {
    return new Directives(gpus, name, group, key, s);
  }

  private static Scheduling resumeArg(Scheduling s, String value, int line) {
    String problem = ResumeArgs.problem(value);
    if (problem != null) throw new RefusedException(problem + " (line " + line + ")");
    return new Scheduling(s.after(), s.retries(), s.time(), s.priority(), s.begin(), value, s.need());
  }

  private static GpuNeed vram(String value, int line) {
    String problem = GpuNeed.sizeProblem("--vram", value);
    if (problem != null) throw new RefusedException(problem + " (line " + line + ")");
    return GpuNeed.of(GpuNeed.parseMiB(value), List.of());
  }

  private static int perGpu(String value, int line) {
    if (!value.matches("\\d{1,3}") || Integer.parseInt(value) < 1 || Integer.parseInt(value) > GpuNeed.MAX_PER_GPU)
      throw new RefusedException("--per-gpu must be from 1 to " + GpuNeed.MAX_PER_GPU + ", not '" + PrintableText.escape(value)
          + "' (line " + line + ")");
    return Integer.parseInt(value);
  }

  private static GpuNeed gpuType(String value, int line) {
    try {
      return GpuNeed.of(0, GpuNeed.parseTypes("--gpu-type", value));
    } catch (IllegalArgumentException e) {
      throw new RefusedException(e.getMessage() + " (line " + line + ")");
    }
  }

  private static int gpuCount(String value, int line) {
    if (!value.matches("\\d{1,6}")) {
      throw new RefusedException("invalid GPU count on line " + line + ": '" + value + "'; use a whole number, 0 or more");
    }
    return Integer.parseInt(value);
  }

  private static Duration time(String value, int line) {
    Duration d = Durations.parse(value);
    if (d == null) throw new RefusedException(Durations.problem(value, " on line " + line));
    String over = Durations.tooLong(d, Durations.LONGEST, "the time limit", value);
    if (over != null) throw new RefusedException(over + " (line " + line + ")");
    return d;
  }

  private static int priority(String value, int line) {
    if (value.matches("-?\\d{1,3}")) {
      int p = Integer.parseInt(value);
      if (SpecRules.priorityInRange(p)) return p;
    }
    throw new RefusedException("invalid priority on line " + line + ": '" + value + "'; use a whole number from "
        + JobSpec.MIN_PRIORITY + " to " + JobSpec.MAX_PRIORITY);
  }

  private static int retries(String value, int line) {
    Integer n = Scheduling.retryCount(value);
    if (n == null) {
      throw new RefusedException("invalid retry count on line " + line + ": '" + value + "'; use a whole number from 0 to "
          + SpecRules.MAX_RETRIES);
    }
    return n;
  }

  private static List<Dependency> plus(List<Dependency> deps, String value, boolean okOnly, int line) {
    List<Dependency> out = deps == null ? new ArrayList<>() : new ArrayList<>(deps);
    for (String part : value.split(",", -1)) {
      Long id = Scheduling.jobId(part);
      if (id == null) throw new RefusedException("invalid job id on line " + line + ": '" + part.strip() + "'; use a job number like 12");
      out.add(new Dependency(id, okOnly));
    }
    return List.copyOf(out);
  }

  private static String label(String option, String value, int line) {
    if (value.isEmpty()) throw new RefusedException("empty " + option + " on line " + line);
    String problem = SpecRules.labelProblem("the " + option + " on line " + line, value);
    if (problem != null) throw new RefusedException(problem);
    return value;
  }
}
