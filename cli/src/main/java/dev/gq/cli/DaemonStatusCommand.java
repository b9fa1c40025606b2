package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.alloc.GpuClassifier;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.PrintableText;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq daemon status}: the running daemon's pid, version and protocol, its data directory,
 * what its GPU probe sees (saying plainly when the GPUs are fake or NVML is unavailable) and how
 * many jobs run and wait, how each part of the daemon is doing and when it last did its work, a
 * journal that cannot be written, why GPUs' machine-wide leases cannot be checked (a lease directory
 * this user cannot write), the machine policy in force or why none is, whether the queue is held and which groups are held and why, and the
 * notification targets with their failures. A warning from the daemon goes to stderr.
 */
@Command(name = "status", description = "Show the daemon's pid, version, data directory, GPU probe, job counts, the state of each of its parts, and a held queue or held groups.")
final class DaemonStatusCommand implements Callable<Integer> {
  private final Invocation inv;

  DaemonStatusCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    GqApi.DaemonInfo info = inv.api().daemonInfo();
    PrintWriter out = inv.out();
    out.println("gq daemon is running (pid " + info.pid() + ", version " + info.version() + ", protocol " + info.protocol() + ")");
    out.println("Data dir:  " + info.dataDir());
    out.println("GPUs:      " + gpus(info));
    out.println("Jobs:      " + info.running() + " running, " + info.waiting() + " waiting");
    PartsStatus.status(inv.api()).forEach(out::println);
    String journal = inv.api().journalProblem();
    if (journal != null) out.println("Journal:   " + journal);
    leaseProblems(inv.api().gpus()).forEach(p -> out.println("Leases:    " + p));
    GqApi.WhoReport who = inv.api().who();
    if (who != null) out.println("Policy:    " + who.policy());
    if (who != null && who.demandProblem() != null) out.println("Demand:    " + PrintableText.escape(who.demandProblem()));
    QueueNotes.status(inv.api().queueState()).forEach(out::println);
    NotifyCommand.status(inv.api()).forEach(out::println);
    WebCommand.status(inv.api()).forEach(out::println);
    if (info.warning() != null && !info.warning().isBlank()) inv.err().println("warning: " + info.warning());
    return ExitCode.OK;
  }

  /**
   * Why GPUs' machine-wide leases cannot be checked (as a lease directory this user cannot write),
   * each once, with how many GPUs it keeps UNKNOWN; none when every lease could be checked.
   */
  static List<String> leaseProblems(GqApi.GpuReport report) {
    Map<String, Integer> why = new LinkedHashMap<>();
    for (var g : report.gpus()) {
      String d = g.detail();
      if (g.state() == GpuState.UNKNOWN && d != null && d.startsWith(GpuClassifier.LEASE_UNCHECKED))
        why.merge(d.substring(GpuClassifier.LEASE_UNCHECKED.length()), 1, Integer::sum);
    }
    return why.entrySet().stream()
        .map(e -> "cannot be checked (" + e.getValue() + (e.getValue() == 1 ? " GPU" : " GPUs") + " UNKNOWN): " + e.getKey())
        .toList();
  }

  static String gpus(GqApi.DaemonInfo info) {
    String count = info.gpuCount() + (info.gpuCount() == 1 ? " GPU" : " GPUs");
    if (info.fake()) {
      String fake = count + ", fake (" + info.probe() + "); no real device is used";
      return info.gpuError() == null ? fake : fake + "; the fake probe fails: " + info.gpuError();
    }
    if (info.gpuError() != null) return "NVML unavailable: " + info.gpuError() + " (" + count + " known, all UNKNOWN)";
    return count + " (" + info.probe() + ")";
  }
}
