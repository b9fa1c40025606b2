package dev.gq.mcp;

import java.util.ArrayList;
import java.util.List;

/**
 * The tools that only look: ps, show, logs, gpu, groups, who, eta, report and events. Each runs the matching gq
 * command with {@code --json} (logs: the log's last lines as text) and returns its output.
 */
final class ReadTools {
  static final int DEFAULT_LOG_LINES = 100;
  static final int MAX_LOG_LINES = 2000;
  static final int DEFAULT_EVENTS = 200;
  static final int MAX_EVENTS = 5000;
  private static final String IDS = " Never guess a job id: find it with the ps tool.";

  private ReadTools() {}

  static List<Tool> all(Commands gq) {
    return List.of(
        new Tool("ps", "List jobs as JSON (gq ps --json): live jobs and recent ended ones, or every job with"
            + " all: true. Each job has id, name, state, argv, requested_gpus, gpu_indices, group, key, times, and for a"
            + " waiting job wait_reason: code (gpus_busy, after, group_held, fair_share, ...), text and the facts.",
            Schema.object()
                .integers("jobs", "Only these job ids.")
                .bool("all", "Every matching job, not only live and recent ones.")
                .string("group", "Only the jobs of this group.")
                .string("state", "Only jobs in this state, e.g. RUNNING, WAITING, FAILED.")
                .integer("limit", "At most this many jobs, newest first.").build(),
            a -> gq.run(ps(a))),
        new Tool("show", "One job in detail as JSON (gq show ID --json), including why it waits (wait_reason: code,"
            + " brief, text and the facts, such as the GPUs busy and what holds them, or the job it waits for)." + IDS,
            Schema.object().integer("job", "The job id.").required("job").build(),
            a -> gq.run(List.of("show", "--json", String.valueOf(a.jobId("job"))))),
        new Tool("logs", "The last lines of a job's output (gq logs -n N ID): " + DEFAULT_LOG_LINES
            + " lines unless told, at most " + MAX_LOG_LINES + "." + IDS,
            Schema.object().integer("job", "The job id.")
                .integer("lines", "How many of the last lines (1 to " + MAX_LOG_LINES + ").").required("job").build(),
            a -> gq.run(List.of("logs", "-n", String.valueOf(a.integer("lines", DEFAULT_LOG_LINES, 1, MAX_LOG_LINES)),
                String.valueOf(a.jobId("job"))))),
        new Tool("gpu", "The GPUs as JSON (gq gpu --json): state (FREE, RESERVED, RUNNING, EXTERNAL, UNKNOWN,"
            + " DRAINED), owner job, processes, memory, utilisation, temperature, power. EXTERNAL means a process gq"
            + " does not own; unwell names the problem of a GPU gq drained because the driver reported it faulty.",
            Schema.object().build(), a -> gq.run(List.of("gpu", "--json"))),
        new Tool("groups", "Each group's (sweep's) progress as JSON (gq groups --json): jobs per state, retries, holds.",
            Schema.object().string("group", "Only this group.").build(), a -> gq.run(groups(a))),
        new Tool("who", "Everyone on this machine as JSON (gq who --json): per user the GPUs held and jobs on them,"
            + " jobs waiting and GPUs wanted; the machine policy in force (or why none is), the GPUs an admin drained"
            + " for every user's gq (by whom and why), the GPU bookings in force, and the booking, demand and admin"
            + " order files not counted with why. A job that waits with 'fair share' or 'booked' waits for another user,"
            + " as this shows.",
            Schema.object().build(), a -> gq.run(List.of("who", "--json"))),
        new Tool("eta", "How far running jobs have got and how long they have left, as JSON (gq eta --json):"
            + " percent, remaining_seconds, finish and the source it read; nulls mean unknown.",
            Schema.object().integers("jobs", "Only these job ids (default: every running job).").build(),
            a -> gq.run(withIds(new ArrayList<>(List.of("eta", "--json")), a.optionalJobIds("jobs")))),
        new Tool("report", "What the GPUs did over a period, as JSON (gq report --json): per GPU and per group the"
            + " GPU-hours jobs used, jobs ended by state (DONE, FAILED, CANCELLED, ...), median and p90 wait before start,"
            + " and per GPU the hours outside processes held it and the idle hours (null when not recorded).",
            Schema.object().string("since", "Start of the period: 7d (default), 12h, 2026-11-23, 2026-11-23T09:00Z.")
                .string("until", "End of the period, in the same forms (default: now).")
                .string("group", "Only this group's jobs.").build(),
            a -> gq.run(report(a))),
        new Tool("events", "The scheduler's stored events, oldest first, one JSON object a line (gq events --json):"
            + " seq, time, type, job_id, fields. The last " + DEFAULT_EVENTS + " unless told.",
            Schema.object().string("since", "Only events at or after this time: 1h, 30m, 2026-05-01T10:00.")
                .integer("job", "Only this job's events.")
                .integer("limit", "Only the last N matching events (1 to " + MAX_EVENTS + ").").build(),
            a -> gq.run(events(a))));
  }

  private static List<String> ps(Args a) {
    List<String> argv = new ArrayList<>(List.of("ps", "--json"));
    if (a.flag("all")) argv.add("--all");
    option(argv, "--group", a.string("group"));
    option(argv, "--state", a.string("state"));
    if (a.integer("limit", 0, 0, 1_000_000) > 0) argv.add("--limit=" + a.integer("limit", 0, 0, 1_000_000));
    return withIds(argv, a.optionalJobIds("jobs"));
  }

  private static List<String> groups(Args a) {
    List<String> argv = new ArrayList<>(List.of("groups", "--json"));
    String g = a.string("group");
    if (g != null) {
      argv.add("--");
      argv.add(g);
    }
    return argv;
  }

  private static List<String> report(Args a) {
    List<String> argv = new ArrayList<>(List.of("report", "--json"));
    option(argv, "--since", a.string("since"));
    option(argv, "--until", a.string("until"));
    option(argv, "--group", a.string("group"));
    return argv;
  }

  private static List<String> events(Args a) {
    List<String> argv = new ArrayList<>(List.of("events", "--json"));
    option(argv, "--since", a.string("since"));
    Long job = a.optionalJobId("job");
    if (job != null) argv.add("--job=" + job);
    argv.add("--limit=" + a.integer("limit", DEFAULT_EVENTS, 1, MAX_EVENTS));
    return argv;
  }

  static void option(List<String> argv, String option, String value) {
    if (value != null) argv.add(option + "=" + value);
  }

  static List<String> withIds(List<String> argv, List<Long> ids) {
    for (long id : ids) argv.add(String.valueOf(id));
    return argv;
  }
}
