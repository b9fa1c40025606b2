package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.GroupSummary;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.ledger.QueueControl;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code gq groups}: one row per group with its jobs counted by state over each cell's latest
 * attempt (a job a retry replaced is counted under RETRIED only), whether it is held, and on a
 * terminal a progress bar of the ended jobs. Held groups are listed even without jobs.
 */
@Command(name = "groups", description = "Show each group's progress: jobs per state, retries, holds; cap a group's jobs at once.")
final class GroupsCommand implements Callable<Integer> {
  private static final int GROUP_WIDTH = 32;
  private static final int BAR_WIDTH = 20;
  /** The RUNNING column: the active states (core's rule, which group caps count), but ORPHANED, which has its own column. */
  private static final Set<JobState> RUNNING = JobState.where(s -> s.active() && s != JobState.ORPHANED);
  private static final List<JobState> ALWAYS = List.of(JobState.DONE, JobState.FAILED, JobState.CANCELLED);
  private final Invocation inv;

  @Option(names = "--json", description = "Print the groups as a JSON array.")
  boolean json;

  @CommandLine.Parameters(arity = "0..1", paramLabel = "GROUP", description = "Only this group; the one --max-running changes.")
  String group;

  @Option(names = "--max-running", paramLabel = "N", description = "Run at most N jobs of GROUP at once from now on.")
  Integer maxRunning;

  @Option(names = "--no-max-running", description = "Lift GROUP's cap on jobs at once.")
  boolean noMaxRunning;

  @Option(names = "--per-gpu", paramLabel = "K",
      description = "GROUP's GPU jobs submitted from now on share their GPUs, at most K a GPU (as --per-gpu K on each).")
  Integer perGpu;

  @Option(names = "--no-per-gpu", description = "GROUP's jobs submitted from now on share a GPU only when they ask (--share).")
  boolean noPerGpu;

  GroupsCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    if (perGpu != null || noPerGpu) return perGpu();
    if (maxRunning != null || noMaxRunning) return cap();
    List<GroupSummary> groups = group == null ? inv.api().groups() : inv.api().group(group).stream().toList();
    PrintWriter out = inv.out();
    if (json) {
      out.println(JsonView.pretty(json(groups)));
      return ExitCode.OK;
    }
    if (groups.isEmpty() && group != null) {
      out.println("No group " + PrintableText.escape(group) + ": no job has it, and it has no hold or cap.");
      return ExitCode.OK;
    }
    if (groups.isEmpty()) {
      out.println("No groups yet. Submit with --group NAME, or set GQ_GROUP in a sweep script.");
      return ExitCode.OK;
    }
    int width = TextTable.width(inv.io());
    TextTable t = table(groups, inv.io().stdoutTty());
    // a terminal too narrow for every column loses the bar first (the counts say the same)
    if (width > 0 && t.naturalWidth() > width) t = table(groups, false);
    t.print(out, width);
    notices(groups);
    return ExitCode.OK;
  }

  private int cap() throws ApiException {
    if (group == null) throw new UsageException("name the group to cap, as in 'gq groups sweep-7 --max-running 4'");
    if (maxRunning != null && noMaxRunning) throw new UsageException("give --max-running N or --no-max-running, not both");
    if (maxRunning != null && QueueControl.maxRunningProblem(maxRunning) != null)
      throw new UsageException(QueueControl.maxRunningProblem(maxRunning) + " (--no-max-running lifts the cap)");
    inv.out().println(inv.api().limitGroup(Labels.checkOption("GROUP", group), noMaxRunning ? null : maxRunning));
    return ExitCode.OK;
  }

  private int perGpu() throws ApiException {
    if (group == null) throw new UsageException("name the group whose jobs share GPUs, as in 'gq groups evals --per-gpu 4'");
    if (perGpu != null && noPerGpu) throw new UsageException("give --per-gpu K or --no-per-gpu, not both");
    if (maxRunning != null || noMaxRunning) throw new UsageException("give --per-gpu and --max-running in two commands");
    if (perGpu != null && (perGpu < 1 || perGpu > GpuNeed.MAX_PER_GPU))
      throw new UsageException("--per-gpu must be from 1 to " + GpuNeed.MAX_PER_GPU + ", not " + perGpu);
    inv.out().println(inv.api().perGpuGroup(Labels.checkOption("GROUP", group), noPerGpu ? null : perGpu));
    return ExitCode.OK;
  }

  /** The table, with STATUS beside GROUP so that a narrow terminal cuts counts, not the hold. */
  private TextTable table(List<GroupSummary> groups, boolean bar) {
    List<JobState> optional = optionalStates(groups);
    boolean retried = groups.stream().anyMatch(g -> g.retried() > 0);
    List<String> headers = new ArrayList<>(List.of("GROUP", "STATUS", "WAITING", "RUNNING"));
    ALWAYS.forEach(s -> headers.add(s.name()));
    optional.forEach(s -> headers.add(s.name()));
    if (retried) headers.add("RETRIED");
    boolean capped = groups.stream().anyMatch(g -> g.maxRunning() != null);
    if (capped) headers.add("MAX");
    boolean sharing = groups.stream().anyMatch(g -> g.perGpu() != null);
    if (sharing) headers.add("PER-GPU");
    if (bar) headers.add("PROGRESS");
    // on a narrow terminal GROUP and PROGRESS give way first; the counts and STATUS are never cut
    TextTable t = TextTable.of(headers.stream().map(h -> new TextTable.Column(h,
        h.equals("GROUP") ? 8 : h.equals("PROGRESS") ? 8 : 0)).toList());
    t.cutInMiddle(0);
    for (GroupSummary g : groups) t.add(row(g, optional, retried, capped, sharing, bar));
    return t;
  }

  private static List<String> row(GroupSummary g, List<JobState> optional, boolean retried, boolean capped, boolean sharing,
      boolean bar) {
    String status = g.held() ? (g.automatic() ? "held (fail-fast)" : "held") : "-";
    List<String> r = new ArrayList<>(List.of(TextTable.cutMiddle(g.group(), GROUP_WIDTH), status, n(g, JobState.WAITING)));
    r.add(String.valueOf(RUNNING.stream().mapToInt(s -> g.counts().getOrDefault(s, 0)).sum()));
    ALWAYS.forEach(s -> r.add(n(g, s)));
    optional.forEach(s -> r.add(n(g, s)));
    if (retried) r.add(String.valueOf(g.retried()));
    if (capped) r.add(g.maxRunning() == null ? "-" : String.valueOf(g.maxRunning()));
    if (sharing) r.add(g.perGpu() == null ? "-" : String.valueOf(g.perGpu()));
    if (bar) {
      int[] e = GroupText.ended(g);
      r.add(GroupText.bar(e[0], e[1], BAR_WIDTH));
    }
    return r;
  }

  /** Ended states other than DONE, FAILED and CANCELLED, and ORPHANED: a column only when some group has one. */
  private static List<JobState> optionalStates(List<GroupSummary> groups) {
    List<JobState> out = new ArrayList<>();
    for (JobState s : JobState.values()) {
      boolean extra = (s.terminal() && !ALWAYS.contains(s)) || s == JobState.ORPHANED;
      if (extra && groups.stream().anyMatch(g -> g.counts().getOrDefault(s, 0) > 0)) out.add(s);
    }
    return out;
  }

  private static String n(GroupSummary g, JobState s) {
    return String.valueOf(g.counts().getOrDefault(s, 0));
  }

  private void notices(List<GroupSummary> groups) {
    PrintWriter err = inv.err();
    if (groups.stream().anyMatch(g -> g.retried() > 0))
      err.println("gq: counts cover each job's latest attempt; RETRIED is how many attempts a retry replaced");
    groups.stream().filter(GroupSummary::held).forEach(g -> GroupText.holdNotice(err, g));
  }

  static ArrayNode json(List<GroupSummary> groups) {
    ArrayNode a = JsonView.object().arrayNode();
    for (GroupSummary g : groups) {
      ObjectNode n = a.addObject();
      n.put("group", g.group());
      ObjectNode counts = n.putObject("counts");
      for (JobState s : JobState.values()) counts.put(s.name(), g.counts().getOrDefault(s, 0));
      n.put("retried", g.retried());
      n.put("held", g.held());
      n.put("hold_reason", g.holdReason());
      n.put("automatic_hold", g.automatic());
      n.put("max_running", g.maxRunning());
      n.put("per_gpu", g.perGpu());
    }
    return a;
  }
}
