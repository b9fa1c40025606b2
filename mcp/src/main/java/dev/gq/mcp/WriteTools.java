package dev.gq.mcp;

import dev.gq.mcp.Tool.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The tools that change the queue: submit, cancel, retry, preempt and resume. Each acts only when
 * called with {@code confirm: true}; without it, it is a dry run that acts on nothing and returns
 * the exact gq command line and, for the jobs it names, their state and how long they have run.
 * Arguments are checked first, so a dry run of a bad call fails as the real call would.
 */
final class WriteTools {
  private static final String RULES = " Never guess a job id: find it with the ps tool."
      + " Without confirm: true this is a dry run that changes nothing; show the user what it would do,"
      + " ask, and only then call it again with confirm: true.";

  private final Commands gq;
  private final Supplier<Instant> clock;

  WriteTools(Commands gq, Supplier<Instant> clock) {
    this.gq = gq;
    this.clock = clock;
  }

  List<Tool> all() {
    return List.of(
        new Tool("submit", "Queue a command for whole GPUs (gq run). For a sweep, give each cell a key (and the"
            + " sweep a group), so that submitting again skips what is queued, running or done."
            + " Without confirm: true this is a dry run that queues nothing and returns the command line.",
            Schema.object()
                .strings("argv", "The command and its arguments, one word each, e.g. [\"python\", \"train.py\", \"--lr\", \"3e-4\"].")
                .integer("gpus", "Whole GPUs (0 to 64; default 1; 0: no GPU).")
                .string("name", "The name gq ps shows.").string("group", "The sweep or group the job belongs to.")
                .string("key", "An idempotency key: the submit is skipped while a job with this key is live or done.")
                .string("time", "A time limit: 30m, 2h, 1h30m (at most 365 days).").integer("priority", "-100 to 100; higher starts first.")
                .integers("after", "Start only after these jobs have ended.")
                .integer("retries", "Retry automatically up to N times when it fails (0 to 100).")
                .string("vram", "The least memory each GPU must have: 20G, 80GB (as cards are labelled), 24GiB. gq gpu shows each card's.")
                .string("gpu_type", "Only GPUs whose name has this word, or one of a comma list: A100, H100, 4090.")
                .bool("share", "Let the job share a GPU with other shared jobs (small evals): vram is then its share of each GPU;"
                    + " needs vram or per_gpu. It never goes beside a job that did not ask to share.")
                .integer("per_gpu", "Share, with at most this many shared jobs on each GPU (1 to 64); without vram each takes"
                    + " (memory - headroom) / per_gpu of the card.")
                .string("cwd", "The absolute working directory (default: the directory gq mcp was started in).")
                .confirm().required("argv").build(),
            this::submit),
        new Tool("cancel", "Cancel jobs (gq cancel --yes): waiting ones never start, running ones are stopped and"
            + " their work since the last checkpoint is lost. Prefer preempt to keep a run's progress." + RULES,
            Schema.object().integers("jobs", "The job ids.").confirm().required("jobs").build(),
            a -> guarded(a, "cancel", ReadTools.withIds(new ArrayList<>(List.of("cancel", "--yes")), a.jobIds("jobs")),
                gq.cwd(), a.jobIds("jobs"), "would cancel:")),
        new Tool("retry", "Queue ended jobs again (gq retry): failed, cancelled, interrupted, timed out, or"
            + " preempted (which resume from their newest checkpoint)." + RULES,
            Schema.object().integers("jobs", "The job ids.").confirm().required("jobs").build(),
            a -> guarded(a, "retry", ReadTools.withIds(new ArrayList<>(List.of("retry")), a.jobIds("jobs")),
                gq.cwd(), a.jobIds("jobs"), "would queue again:")),
        new Tool("preempt", "Make room (gq preempt): ask running jobs to save and stop; they keep their GPUs until"
            + " they have, and resume continues them later. With for, the freed GPUs go to that waiting job." + RULES,
            Schema.object().integers("jobs", "The running jobs' ids.")
                .string("grace", "How long each may take to save before it is stopped (default 2m): 30s, 10m; at most 365 days.")
                .integer("for", "A waiting job's id that gets the freed GPUs.")
                .bool("requeue", "Queue the resume as soon as the job has stopped.")
                .confirm().required("jobs").build(),
            this::preempt),
        new Tool("resume", "Continue preempted jobs from their newest checkpoint, as new attempts (gq resume)." + RULES,
            Schema.object().integers("jobs", "The preempted jobs' ids.")
                .string("from", "Resume from this checkpoint path instead of the newest.")
                .confirm().required("jobs").build(),
            this::resume));
  }

  private Reply submit(Args a) {
    List<String> argv = new ArrayList<>(List.of("run", "--json", "-g", String.valueOf(a.integer("gpus", 1, 0, 64))));
    ReadTools.option(argv, "--name", a.string("name"));
    ReadTools.option(argv, "--group", a.string("group"));
    ReadTools.option(argv, "--key", a.string("key"));
    ReadTools.option(argv, "--time", a.string("time"));
    if (a.integer("priority", 0, -100, 100) != 0) argv.add("--priority=" + a.integer("priority", 0, -100, 100));
    for (long id : a.optionalJobIds("after")) argv.add("--after=" + id);
    if (a.integer("retries", 0, 0, 100) > 0) argv.add("--retries=" + a.integer("retries", 0, 0, 100));
    ReadTools.option(argv, "--vram", a.string("vram"));
    ReadTools.option(argv, "--gpu-type", a.string("gpu_type"));
    if (a.flag("share")) argv.add("--share");
    if (a.integer("per_gpu", 0, 0, 64) > 0) argv.add("--per-gpu=" + a.integer("per_gpu", 0, 0, 64));
    argv.add("--");
    argv.addAll(a.strings("argv"));
    String dir = a.string("cwd");
    if (dir != null && (!Path.of(dir).isAbsolute() || !Files.isDirectory(Path.of(dir)))) {
      throw new BadArgument("submit: 'cwd' must be the absolute path of an existing directory, not " + dir);
    }
    return guarded(a, "submit", argv, dir == null ? gq.cwd() : dir, List.of(), "would queue it in " + (dir == null ? gq.cwd() : dir));
  }

  private Reply preempt(Args a) {
    List<Long> jobs = a.jobIds("jobs");
    List<String> argv = new ArrayList<>(List.of("preempt", "--json"));
    ReadTools.option(argv, "--grace", a.string("grace"));
    Long forJob = a.optionalJobId("for");
    if (forJob != null) argv.add("--for=" + forJob);
    if (a.flag("requeue")) argv.add("--requeue");
    List<Long> touched = new ArrayList<>(jobs);
    if (forJob != null && !touched.contains(forJob)) touched.add(forJob);
    return guarded(a, "preempt", ReadTools.withIds(argv, jobs), gq.cwd(), touched,
        "would ask to save and stop" + (forJob == null ? ":" : " (the freed GPUs going to job " + forJob + "):"));
  }

  private Reply resume(Args a) {
    List<String> argv = new ArrayList<>(List.of("resume", "--json"));
    ReadTools.option(argv, "--from", a.string("from"));
    return guarded(a, "resume", ReadTools.withIds(argv, a.jobIds("jobs")), gq.cwd(), a.jobIds("jobs"), "would resume:");
  }

  /** Runs {@code argv} when confirmed; otherwise says what it would run and touch, and runs nothing that changes. */
  private Reply guarded(Args a, String tool, List<String> argv, String dir, List<Long> touched, String effect) {
    if (a.confirmed()) return gq.run(argv, dir);
    StringBuilder sb = new StringBuilder("Dry run: nothing was done.\n");
    sb.append("command: ").append(CommandText.of(argv)).append('\n').append(effect).append('\n');
    if (!touched.isEmpty()) {
      for (String line : DryRunLines.describe(gq, touched, clock.get())) sb.append("  ").append(line).append('\n');
    }
    sb.append("To do it, tell the user, and once they agree call ").append(tool)
        .append(" again with the same arguments and confirm: true.");
    return Reply.ok(sb.toString());
  }
}
