package dev.gq.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The options {@code run} and {@code submit} share: the job's labels, when it may start and how
 * long it may run, how its environment is captured, and the output ({@code --json}, {@code -q}). Mixed into both commands; values are checked by
 * {@link Submitter} and the commands, not here.
 */
final class SubmitOptions {
  @Option(names = "--name", paramLabel = "NAME", description = "Name shown by 'gq ps' (default: the program's or script's file name).")
  String name;

  @Option(names = "--group", paramLabel = "GROUP", description = "Put the job in a group (default: $GQ_GROUP).")
  String group;

  @Option(names = "--key", paramLabel = "KEY", description = "Skip the submit if a job with this key is waiting, running or done.")
  String key;

  @Option(names = "--env-all", description = "Store secret variables too (also GQ_ENV_ALL=1).")
  boolean envAll;

  @Option(names = "--env-keep", paramLabel = "NAME", description = "Store this secret variable anyway (repeatable).")
  List<String> envKeep = new ArrayList<>();

  @Option(names = "--after", paramLabel = "JOB", split = ",", description = "Start only after job JOB has ended, however it ended (repeatable).")
  List<String> after = new ArrayList<>();

  @Option(names = "--after-ok", paramLabel = "JOB", split = ",", description = "Start only after job JOB has ended DONE (repeatable).")
  List<String> afterOk = new ArrayList<>();

  @Option(names = "--retries", paramLabel = "N", description = "Retry a failed job automatically up to N times (default 0).")
  Integer retries;

  @Option(names = "--time", paramLabel = "DURATION", description = "Stop the job as TIMEOUT after it ran this long: 30m, 2h, 1h30m, 3d (at most 365 days).")
  String time;

  @Option(names = "--priority", paramLabel = "N",
      description = "Start before waiting jobs of lower priority: -100 to 100, higher first (default 0).")
  Integer priority;

  @Option(names = "--begin", paramLabel = "WHEN",
      description = "Do not start before WHEN: a duration (30m, 2h), a time of day (16:00) or a date and time (2026-12-01T08:00), within 365 days.")
  String begin;

  @Option(names = "--max-running", paramLabel = "N",
      description = "Run at most N jobs of this job's group at once (needs --group or $GQ_GROUP; 'gq groups' changes it later).")
  Integer maxRunning;

  @Option(names = "--resume-arg", paramLabel = "WORDS",
      description = "How the command takes a checkpoint when 'gq resume' continues it: {ckpt} stands for the path, e.g. '--resume_from_checkpoint {ckpt}'.")
  String resumeArg;

  @Option(names = "--vram", paramLabel = "SIZE",
      description = "Place the job only on GPUs with at least SIZE of memory each: 20G, 80GB (as cards are labelled), 24GiB, 512M.")
  String vram;

  @Option(names = "--gpu-type", paramLabel = "TYPE[,TYPE]",
      description = "Place the job only on GPUs whose name has this word (any of a list): A100, H100, 4090; 'gq gpu' shows the names.")
  String gpuType;

  @Option(names = "--share",
      description = "Let the job share its GPUs with other --share jobs while their declared memory (--vram) plus a headroom fits each card; never beside a job that did not ask to share. Packed best fit: the fullest card that holds it, else the smallest free one.")
  boolean share;

  @Option(names = "--per-gpu", paramLabel = "K",
      description = "Share (as --share) with at most K shared jobs on each GPU; without --vram the job declares (memory - headroom)/K of the card.")
  Integer perGpu;

  @Option(names = "--venv", paramLabel = "PATH",
      description = "Run python, pip or a console script from this virtual environment (default: the nearest .venv holding it, from here up to the repository root or your home).")
  String venv;

  @Option(names = "--no-venv", description = "Do not look for a .venv: run the command as your PATH finds it.")
  boolean noVenv;

  @Option(names = "--conda", paramLabel = "NAME|PATH",
      description = "Run the job inside this conda environment, activated by conda itself so that its activation hooks run.")
  String conda;

  @Option(names = "--notify", paramLabel = "EVENTS", arity = "0..1", preprocessor = NotifyOption.class,
      description = "Notify about this job: --notify alone for its end, or --notify=failed,end,group or none (stored as GQ_NOTIFY).")
  String notify;

  @Option(names = "--to", paramLabel = "TARGET",
      description = "Where the job runs: local (this machine), slurm or slurm:PROFILE (a Slurm cluster; profiles in ~/.config/gq/config.toml). Default: the config file's 'to', else local.")
  String to;

  @Option(names = "--json", description = "Print the result as JSON.")
  boolean json;

  @Option(names = {"-q", "--parsable"}, description = "Print only the job id (a batch: one id a line), for scripts.")
  boolean parsable;

  /** Refuses output options that exclude each other. */
  void checkOutput() {
    if (json && parsable) throw new UsageException("give --json or -q/--parsable, not both");
  }

  /** The scheduling options given on the command line (null fields: not given). */
  /** As {@link #scheduling()}, with {@code --begin} read against the daemon's clock and the caller's zone. */
  Scheduling scheduling(Invocation inv) {
    Scheduling s = scheduling();
    return begin == null ? s : s.withBegin(BeginTime.option(begin, inv.api().now(), inv.io().env()));
  }

  Scheduling scheduling() {
    Scheduling s = Scheduling.fromOptions(after, afterOk, retries, time, priority)
        .withNeed(Scheduling.needFromOptions(vram, gpuType, share, perGpu));
    return resumeArg == null ? s : s.withResumeArg(resumeArg);
  }
}
