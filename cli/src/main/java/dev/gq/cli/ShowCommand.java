package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.cluster.ClusterTarget;
import dev.gq.core.gpu.MemoryText;
import dev.gq.core.job.Durations;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Preemption;
import dev.gq.core.progress.Estimate;
import dev.gq.core.pyenv.Conda;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq show JOB}: everything gq knows about one job, one "Label: value" line each ("-" when
 * unset; user text with {@link PrintableText}'s characters escaped), or the job object with
 * {@code --json}. The job's stored environment is never shown. A running job's Progress line is
 * {@code gq eta}'s estimate.
 */
@Command(name = "show", description = "Show one job in detail.")
final class ShowCommand implements Callable<Integer> {
  private static final Comparator<GpuSlot> BY_INDEX = Comparator.comparingInt(GpuSlot::index);
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", description = "The job id.")
  String jobId;

  @Option(names = "--json", description = "Print the job as a JSON object.")
  boolean json;

  ShowCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    Job job = find(inv.api(), JobRanges.id(jobId));
    PrintWriter out = inv.out();
    JobHints hints = JobHints.of(inv.api(), List.of(job));
    if (json) out.println(JsonView.pretty(JsonView.shownJob(job, hints, job.state() == JobState.WAITING
        ? inv.api().waitReasons().get(job.id()) : null)));
    else print(job, hints, out);
    return ExitCode.OK;
  }

  /** The job, or a refusal saying it does not exist. */
  static Job find(GqApi api, long id) throws ApiException {
    return api.job(id).orElseThrow(() -> new RefusedException("job " + id + " does not exist"));
  }

  private void print(Job job, JobHints hints, PrintWriter out) throws ApiException {
    ZoneId zone = Times.zone(inv.io().env());
    line(out, "Job ID", String.valueOf(job.id()));
    line(out, "Name", job.displayName());
    // HELD for a waiting job of a held group, as gq ps and gq logs say it
    boolean grouped = job.state() == JobState.WAITING && job.spec().group() != null;
    line(out, "State", grouped ? JobTable.state(job, inv.api().holds().keySet()) : job.state().name());
    line(out, "Group", job.spec().group());
    line(out, "Key", job.spec().key());
    line(out, "Command", ShellQuote.join(job.spec().argv()));
    line(out, "Working dir", job.spec().cwd());
    String venv = job.spec().env().get("VIRTUAL_ENV");
    if (venv != null && !job.spec().argv().isEmpty() && job.spec().argv().get(0).startsWith(venv + "/bin/")) line(out, "Venv", venv);
    String conda = job.spec().env().get(Conda.PREFIX_VARIABLE);
    if (conda != null) line(out, "Conda", conda);
    line(out, "GPUs", gpus(job));
    line(out, "GPU UUIDs", job.gpus().stream().sorted(BY_INDEX).map(GpuSlot::uuid).collect(Collectors.joining(", ")));
    line(out, "Submitted", job.submitTime() == null ? null : Times.format(job.submitTime(), zone));
    line(out, "Started", job.startTime() == null ? null : Times.format(job.startTime(), zone));
    line(out, "Ended", job.endTime() == null ? null : Times.format(job.endTime(), zone));
    line(out, "Elapsed", job.startTime() == null ? null : JobColumn.elapsed(job, inv.api().now()));
    line(out, "PID", job.pid() == null ? null : String.valueOf(job.pid()));
    line(out, "PGID", job.identity() == null || job.adopted() ? null : String.valueOf(job.identity().pgid()));
    if (job.adopted()) line(out, "Adopted", "yes: started by hand; gq signals only that process and its descendants");
    line(out, "Exit code", job.exitCode() == null ? null : String.valueOf(job.exitCode()));
    line(out, "Log", job.logPath());
    // a preemption is not a failure: its reason says how the job stopped
    line(out, job.state() == JobState.PREEMPTED ? "Stopped" : "Failure", job.failureReason());
    line(out, "Retry of", job.retryOf() == null ? null : String.valueOf(job.retryOf()));
    line(out, "After", job.spec().after().stream()
        .map(d -> "job " + d.jobId() + (d.okOnly() ? " ends DONE" : " ends")).collect(Collectors.joining(", ")));
    line(out, "Retries", job.spec().retries() == 0 ? null : job.spec().retries() + " left (a new attempt after a failure)");
    line(out, "Time limit", job.spec().timeLimit() == null ? null : Durations.format(job.spec().timeLimit()));
    if (job.spec().priority() != 0) line(out, "Priority", String.valueOf(job.spec().priority()));
    if (job.spec().begin() != null) line(out, "Begins", Times.format(job.spec().begin(), zone));
    if (job.spec().gpuNeed() != null && !job.spec().gpuNeed().text().isEmpty()) line(out, "Each GPU", job.spec().gpuNeed().text());
    if (job.spec().shares()) line(out, "Shares", shares(job));
    if (job.state() == JobState.WAITING) line(out, "Waiting for", waitText(inv.api().waitReasons().get(job.id())));
    if (job.spec().onCluster()) line(out, "Runs on", cluster(job));
    if (job.spec().resumeArg() != null) line(out, "Resume arg", job.spec().resumeArg());
    if (job.spec().resumes())
      line(out, "Resumes", job.spec().resumesFromNewest() ? "from the newest complete checkpoint when it starts" : "from " + job.spec().resumeFrom());
    if (job.state() == JobState.PREEMPTING) line(out, "Preempting", preempting(job, zone));
    if (job.state() == JobState.RUNNING || job.state() == JobState.PREEMPTING) line(out, "Progress", progress(job, zone));
    hints(job, hints, zone, out);
  }

  /** The Idle and GPU health lines, only when there is something to say. */
  private static void hints(Job job, JobHints hints, ZoneId zone, PrintWriter out) {
    String idleFor = hints.idleFor(job);
    if (idleFor != null) {
      line(out, "Idle", idleFor + ": its GPUs have shown 0% utilisation since "
          + Times.format(hints.idle().get(job.id()), zone) + " (a hint: gq does not stop it)");
    }
    for (String g : hints.unwellGpus(job)) {
      line(out, "GPU unwell", g + "; drained: the job keeps running there, no new job goes on it");
    }
  }

  /** "slurm:a100, Slurm job 1234", with the cluster's silence when it does not answer. */
  private String cluster(Job job) throws ApiException {
    String s = ClusterTarget.text(job.spec().cluster())
        + (job.clusterId() == null ? (job.state().terminal() ? "" : ", not yet sent to Slurm") : ", Slurm job " + job.clusterId());
    if (job.state().terminal()) return s;
    String down = inv.api().queueState().unreachable().get(job.spec().cluster());
    return down == null ? s : s + "; the cluster does not answer (" + down + "): state UNKNOWN";
  }

  /** "SIGTERM to its main process at 10:02:11; stopped at 10:07:11 if still running; its GPUs go to job 7". */
  private String preempting(Job job, ZoneId zone) throws ApiException {
    Preemption p = inv.api().preemptions().get(job.id());
    if (p == null) return null;
    String s = "SIG" + p.signalName() + " to its " + (p.group() ? "process group" : "main process") + " at "
        + Times.format(p.at(), zone) + "; stopped at " + Times.format(p.deadline(), zone) + " if still running";
    if (p.forJob() != null) s += "; its GPUs go to job " + p.forJob();
    if (p.requeue()) s += "; its resume is queued once it has stopped";
    return s;
  }

  /** The running job's estimate, or "unknown" when nothing it wrote says how far it has got. */
  private String progress(Job job, ZoneId zone) throws ApiException {
    Estimate e = inv.api().progress(List.of(job.id())).get(job.id());
    return e == null ? "unknown" : ProgressText.line(e, inv.api().now(), zone);
  }

  /**
   * How a shared job shares its GPUs: "18.6 GiB of each GPU with other shared jobs" before it runs; on
   * its GPUs "GPU 0: 18.6 GiB, uses 12.1 GiB, beside jobs 5, 6", saying when it uses more than it declared.
   */
  private String shares(Job job) throws ApiException {
    var need = job.spec().gpuNeed();
    String declared = need.vramMiB() > 0 ? MemoryText.words(need.vramMiB()) : "1/" + need.perGpu();
    String base = declared + " of each GPU, beside other shared jobs" + (need.perGpu() > 0 ? " (at most " + need.perGpu()
        + " a GPU)" : "");
    if (!job.state().holdsGpus() || job.gpus().isEmpty()) return base;
    GqApi.GpuReport report = inv.api().gpus();
    List<String> parts = new ArrayList<>();
    for (var g : report.gpus()) {
      for (var s : g.shares()) {
        if (s.jobId() != job.id()) continue;
        long mine = s.declaredMiB(g.totalMiB(), report.shareHeadroomMiB());
        String p = "GPU " + g.index() + ": " + MemoryText.words(mine);
        if (s.usedMiB() >= 0) p += ", uses " + MemoryText.words(s.usedMiB());
        if (s.over(g.totalMiB(), report.shareHeadroomMiB()))
          p += ", more than it declared: no more jobs go on GPU " + g.index() + " until it uses less";
        String others = g.shares().stream().filter(o -> o.jobId() != job.id()).map(o -> String.valueOf(o.jobId()))
            .collect(Collectors.joining(", "));
        if (!others.isEmpty()) p += ", beside job" + (others.contains(",") ? "s " : " ") + others;
        parts.add(p);
      }
    }
    return parts.isEmpty() ? base : String.join("; ", parts);
  }

  /** The reason after "Waiting for:", without a "waiting for" of its own. */
  private static String waitText(WaitReason reason) {
    if (reason == null) return null;
    String text = reason.text();
    return text.startsWith("waiting for ") ? text.substring("waiting for ".length()) : text;
  }

  private static String gpus(Job job) {
    int n = job.spec().gpus();
    if (n == 0) return "0 (no GPU)";
    if (job.gpus().isEmpty()) return n + " requested";
    String indices = job.gpus().stream()
        .sorted(BY_INDEX)
        .map(s -> String.valueOf(s.index()))
        .collect(Collectors.joining(","));
    return n + " (indices " + indices + ")";
  }

  /** One "Label: value" line; none for a value the job does not have, so the page fits a screen. */
  private static void line(PrintWriter out, String label, String value) {
    if (value == null || value.isEmpty()) return;
    out.println(String.format("%-13s%s", label + ":", PrintableText.escape(value)));
  }
}
