package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.alloc.SharedFit;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.GpuFigures;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.gpu.MemoryText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq gpu}: every GPU as the scheduler classifies it now (FREE, RESERVED, RUNNING,
 * EXTERNAL, UNKNOWN, DRAINED, SHARED), with its owner, compute processes and memory, and a plain line when
 * the GPUs are fake or the probe failed, then on a shared machine everyone's GPUs held and jobs
 * waiting, the policy and the bookings ({@link WhoCommand#section}). Only FREE GPUs get new jobs; SHARED ones only shared jobs. Its subcommands drain GPUs
 * of new jobs and give them back.
 */
@Command(name = "gpu", description = "Show the GPUs, who uses them and which are free.")
final class GpuCommand implements Callable<Integer> {
  private static final int MAX_PIDS = 4;
  private static final int UUID_WIDTH = 20;
  /** The narrowest the DETAIL column is cut to (TextTable's last column). */
  private static final int DETAIL_MIN = 12;
  private final Invocation inv;

  @Option(names = "--json", description = "Print the GPUs as a JSON array (memory in bytes).")
  boolean json;

  GpuCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    GqApi.GpuReport report = inv.api().gpus();
    PrintWriter out = inv.out();
    int width = TextTable.width(inv.io());
    if (json) out.println(JsonView.pretty(JsonView.gpus(report)));
    else if (report.gpus().isEmpty() && report.error() == null) out.println("No GPUs found; jobs with -g 0 still run.");
    else if (!report.gpus().isEmpty()) table(report, width).print(out, width);
    notes(report, json ? inv.err() : out);
    if (!json) everyone(out);
    if (report.error() == null) return ExitCode.OK;
    inv.err().println("gq: the GPU probe failed: " + report.error() + "; GPUs it cannot read are UNKNOWN and get no new jobs");
    return report.gpus().isEmpty() ? ExitCode.FAILED : ExitCode.OK;
  }

  /** Everyone's part of a shared machine under the table, when others use it or a policy or booking is in force. */
  private void everyone(PrintWriter out) throws ApiException {
    GqApi.WhoReport who = inv.api().who();
    if (!WhoCommand.shared(who)) return;
    out.println();
    WhoCommand.section(who, Times.zone(inv.io().env())).forEach(out::println);
  }

  private static void notes(GqApi.GpuReport report, PrintWriter where) {
    if (report.fake()) where.println("These GPUs are fake (" + report.probe() + "); no real device is used.");
  }

  /**
   * The table; with UTIL, TEMP and POWER after MEMORY when some GPU gives a figure and the columns fit
   * {@code width} (0: any width) beside a DETAIL column of its narrowest. A figure not given is blank.
   */
  static TextTable table(GqApi.GpuReport report, int width) {
    List<GpuStatus> gpus = report.gpus();
    boolean anyFigure = gpus.stream().anyMatch(g -> !report.figures(g.uuid()).equals(GpuFigures.NONE));
    if (anyFigure && (width <= 0 || fixedWidth(report, true) + 2 + DETAIL_MIN <= width)) return table(report, true);
    return table(report, false);
  }

  private static TextTable table(GqApi.GpuReport report, boolean figures) {
    List<String> headers = new ArrayList<>(List.of("GPU", "UUID", "TYPE", "STATE", "OWNER", "PIDS", "MEMORY"));
    if (figures) headers.addAll(List.of("UTIL", "TEMP", "POWER"));
    headers.add("DETAIL");
    TextTable t = new TextTable(headers);
    for (GpuStatus g : report.gpus()) {
      List<String> cells = row(g, figures ? report.figures(g.uuid()) : null);
      cells.add(detail(g, report.shareHeadroomMiB()));
      t.add(cells);
    }
    return t;
  }

  /** How wide the columns before DETAIL are. */
  private static int fixedWidth(GqApi.GpuReport report, boolean figures) {
    List<String> headers = new ArrayList<>(List.of("GPU", "UUID", "TYPE", "STATE", "OWNER", "PIDS", "MEMORY"));
    if (figures) headers.addAll(List.of("UTIL", "TEMP", "POWER"));
    TextTable t = new TextTable(headers);
    for (GpuStatus g : report.gpus()) t.add(row(g, figures ? report.figures(g.uuid()) : null));
    return t.naturalWidth();
  }

  private static List<String> row(GpuStatus g, GpuFigures f) {
    List<String> cells = new ArrayList<>(List.of(String.valueOf(g.index()), shortUuid(g.uuid()), type(g.name()),
        g.state().name(), owner(g), pids(g.processes()), memory(g)));
    if (f != null) {
      cells.add(f.utilPercent() == null ? "" : f.utilPercent() + "%");
      cells.add(f.temperatureC() == null ? "" : f.temperatureC() + "C");
      cells.add(power(f));
    }
    return cells;
  }

  /**
   * The DETAIL column: why a GPU is UNKNOWN or EXTERNAL; for a shared one its jobs with their shares,
   * other gq instances' shares with their holders, and what is left ("jobs 4 (18.6G), 5 (18.6G), bob's
   * job 3 (18.6G); 15.4G left"), and the jobs over their share.
   */
  static String detail(GpuStatus g, long headroomMiB) {
    String d = g.detail() == null || g.detail().isBlank() ? null : g.detail();
    if (g.shares().isEmpty() && g.others().isEmpty()) return d == null ? "-" : d;
    String s = SharedFit.describe(g, headroomMiB);
    if (!g.overShares(headroomMiB).isEmpty()) s += "; no more jobs go here while a job uses more than it declared";
    return d == null ? s : s + "; " + d;
  }

  /** "210/700W", "210W" without a limit, blank without a reading. */
  static String power(GpuFigures f) {
    if (f.powerWatts() == null) return "";
    return f.powerWatts() + (f.powerLimitWatts() == null ? "" : "/" + f.powerLimitWatts()) + "W";
  }

  /** The card's name without the maker's word every NVIDIA card's name starts with: "H100 80GB HBM3", "GeForce RTX 4090". */
  static String type(String name) {
    if (name == null || name.isBlank()) return "-";
    String n = name.strip();
    return n.regionMatches(true, 0, "NVIDIA ", 0, 7) && n.length() > 7 ? n.substring(7) : n;
  }

  static String shortUuid(String uuid) {
    if (uuid == null) return "-";
    return uuid.length() > UUID_WIDTH ? uuid.substring(0, UUID_WIDTH - 3) + TextTable.ELLIPSIS : uuid;
  }

  private static String owner(GpuStatus g) {
    if (g.shares().size() > 1)
      return "jobs " + g.shares().stream().map(s -> String.valueOf(s.jobId())).collect(Collectors.joining(","));
    if (g.ownerJobId() != null) return "job " + g.ownerJobId();
    if (!g.others().isEmpty() && g.state() == GpuState.SHARED) return "other gq";
    return g.processes().isEmpty() ? "-" : "external";
  }

  static String pids(List<GpuProcess> processes) {
    if (processes.isEmpty()) return "-";
    String shown = processes.stream().limit(MAX_PIDS).map(p -> String.valueOf(p.pid())).collect(Collectors.joining(","));
    int more = processes.size() - MAX_PIDS;
    return more > 0 ? shown + ",+" + more : shown;
  }

  /** Used of total, as gq shows memory: "59.8/79.6G"; "-" when the card gave none. */
  static String memory(GpuStatus g) {
    if (g.totalBytes() <= 0) return "-";
    return MemoryText.usedOfTotal(MemoryText.mib(g.usedBytes()), MemoryText.mib(g.totalBytes()));
  }
}
