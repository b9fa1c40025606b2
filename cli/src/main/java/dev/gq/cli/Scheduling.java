package dev.gq.cli;

import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.SpecRules;
import dev.gq.core.resume.ResumeArgs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * When a job may start and how long it may run, as the user gave it: the jobs it waits for
 * ({@code --after}, {@code --after-ok}), how many automatic retries a failure may use, its
 * time limit, priority and start time, how its command takes a checkpoint on resume, and what each
 * of its GPUs must be ({@code --vram}, {@code --gpu-type}). Null fields were not given; {@link #over} lets the command line win over a script's
 * directives (a given dependency list replaces the script's whole list).
 */
record Scheduling(List<Dependency> after, Integer retries, Duration time, Integer priority, Instant begin,
    String resumeArg, GpuNeed need) {
  static final Scheduling NONE = new Scheduling(null, null, null, null, null, null, null);

  /** Asking nothing of each GPU. */
  Scheduling(List<Dependency> after, Integer retries, Duration time, Integer priority, Instant begin,
      String resumeArg) {
    this(after, retries, time, priority, begin, resumeArg, null);
  }

  /** Without a resume argument. */
  Scheduling(List<Dependency> after, Integer retries, Duration time, Integer priority, Instant begin) {
    this(after, retries, time, priority, begin, null);
  }

  /** Without a start time. */
  Scheduling(List<Dependency> after, Integer retries, Duration time, Integer priority) {
    this(after, retries, time, priority, null);
  }

  /** Without a priority or a start time. */
  Scheduling(List<Dependency> after, Integer retries, Duration time) {
    this(after, retries, time, null, null);
  }

  Scheduling withBegin(Instant at) {
    return new Scheduling(after, retries, time, priority, at, resumeArg, need);
  }

  /** With the words that pass a checkpoint to the command on resume; a template without {ckpt} is a usage error. */
  Scheduling withResumeArg(String template) {
    String problem = ResumeArgs.problem(template);
    if (problem != null) throw new UsageException(problem);
    return new Scheduling(after, retries, time, priority, begin, template, need);
  }

  /** These values where given, else {@code base}'s. */
  Scheduling over(Scheduling base) {
    return new Scheduling(after != null ? after : base.after, retries != null ? retries : base.retries,
        time != null ? time : base.time, priority != null ? priority : base.priority, begin != null ? begin : base.begin,
        resumeArg != null ? resumeArg : base.resumeArg, need(need, base.need));
  }

  /** With what each GPU must be ({@code --vram}, {@code --gpu-type}); each given part replaces the one it had. */
  Scheduling withNeed(GpuNeed given) {
    return new Scheduling(after, retries, time, priority, begin, resumeArg, need(given, need));
  }

  /** {@code given}'s memory and types where it gives them, else {@code base}'s. */
  private static GpuNeed need(GpuNeed given, GpuNeed base) {
    if (given == null || base == null) return given != null ? given : base;
    return GpuNeed.of(given.vramMiB() > 0 ? given.vramMiB() : base.vramMiB(), given.types().isEmpty() ? base.types() : given.types(),
        given.share() || base.share(), given.perGpu() > 0 ? given.perGpu() : base.perGpu());
  }

  /** The need of {@code --vram SIZE} and {@code --gpu-type LIST} (null: not given); a bad value is a usage error. */
  static GpuNeed needFromOptions(String vram, String gpuType) {
    return needFromOptions(vram, gpuType, false, null);
  }

  /**
   * As above with {@code --share} and {@code --per-gpu K} (which shares too: it counts instead of
   * declaring memory); a shared need is checked whole when the job is built ({@link #applyTo}).
   */
  static GpuNeed needFromOptions(String vram, String gpuType, boolean share, Integer perGpu) {
    if (perGpu != null && (perGpu < 1 || perGpu > GpuNeed.MAX_PER_GPU))
      throw new UsageException("--per-gpu must be from 1 to " + GpuNeed.MAX_PER_GPU + ", not " + perGpu);
    GpuNeed base = needOf(vram, gpuType);
    if (!share && perGpu == null) return base;
    return GpuNeed.of(base == null ? 0 : base.vramMiB(), base == null ? List.of() : base.types(), true, perGpu == null ? 0 : perGpu);
  }

  private static GpuNeed needOf(String vram, String gpuType) {
    if (vram == null && gpuType == null) return null;
    if (vram != null && GpuNeed.sizeProblem("--vram", vram) != null) throw new UsageException(GpuNeed.sizeProblem("--vram", vram));
    List<String> types;
    try {
      types = gpuType == null ? List.of() : GpuNeed.parseTypes("--gpu-type", gpuType);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return GpuNeed.of(vram == null ? 0 : GpuNeed.parseMiB(vram), types);
  }

  JobSpec applyTo(JobSpec spec) {
    JobSpec s = spec;
    if (after != null) s = s.withAfter(after);
    if (retries != null) s = s.withRetries(retries);
    if (time != null) s = s.withTimeLimit(time);
    if (priority != null) s = s.withPriority(priority);
    if (begin != null) s = s.withBegin(begin);
    if (resumeArg != null) s = s.withResumeArg(resumeArg);
    if (need != null) s = s.withGpuNeed(need);
    return s;
  }

  /** From command-line values; a bad one is a usage error naming its option. */
  static Scheduling fromOptions(List<String> after, List<String> afterOk, Integer retries, String time, Integer priority) {
    if (priority != null && SpecRules.priority(priority) != null) throw new UsageException(SpecRules.priority(priority));
    return fromOptions(after, afterOk, retries, time).withPriority(priority);
  }

  private Scheduling withPriority(Integer p) {
    return new Scheduling(after, retries, time, p, begin, resumeArg, need);
  }

  static Scheduling fromOptions(List<String> after, List<String> afterOk, Integer retries, String time) {
    List<Dependency> deps = new ArrayList<>();
    for (String a : after) deps.add(new Dependency(dependency("--after", a), false));
    for (String a : afterOk) deps.add(new Dependency(dependency("--after-ok", a), true));
    if (retries != null && SpecRules.retries(retries) != null) throw new UsageException(SpecRules.retries(retries));
    return new Scheduling(deps.isEmpty() ? null : List.copyOf(deps), retries, DurationOption.parse("--time", time));
  }

  /** A job id another job waits for, or null when {@code text} is not a positive whole number. */
  static Long jobId(String text) {
    String t = text.strip();
    if (!t.matches("\\d{1,18}") || Long.parseLong(t) == 0) return null;
    return Long.parseLong(t);
  }

  private static long dependency(String option, String text) {
    Long id = jobId(text);
    if (id == null) throw new UsageException("invalid job id '" + text + "' for " + option + "; use a job number like 12");
    return id;
  }

  /** A retry count, or null when {@code text} is not a whole number that {@link SpecRules#retriesInRange} allows. */
  static Integer retryCount(String text) {
    String t = text.strip();
    if (!t.matches("\\d{1,3}") || !SpecRules.retriesInRange(Integer.parseInt(t))) return null;
    return Integer.parseInt(t);
  }
}
