package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.job.JobState;
import dev.gq.core.job.PrintableText;
import dev.gq.core.job.QueueOrder;
import dev.gq.core.job.WaitReason;
import dev.gq.core.progress.Estimate;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code gq ps}'s table shows besides the jobs, each asked of the daemon only when a listed
 * job and a shown column need it: why waiting jobs wait and which of their groups are held (with a
 * notice for each), their places in the queue, the running jobs' progress and notes, and the Slurm
 * clusters that do not answer. One per {@code gq ps} run; the groups' holds are read once.
 */
final class PsContext {
  private final Invocation inv;
  /** The columns --format named; null: the default ones. */
  private final List<JobColumn> columns;
  private final String group;
  /** The groups' holds, once read (null: not yet). */
  private Map<String, String> holds;
  /** Read once, when first needed (null: not yet): the clusters that do not answer, now. */
  private Map<String, String> unreachable;
  private Instant now;
  /** What gq notices about running jobs, once asked (null: not yet). */
  private JobHints hints;

  PsContext(Invocation inv, List<JobColumn> columns, String group) {
    this.inv = inv;
    this.columns = columns;
    this.group = group;
  }

  /**
   * The held groups that have waiting jobs, in order, for the notices of the default list (none for
   * a list of one group, which has its summary instead); the holds read once, the jobs counted.
   */
  Set<String> heldWithWaiting(String only) throws ApiException {
    Set<String> shown = new TreeSet<>();
    if (only != null) return shown;
    for (String g : holds().keySet())
      if (inv.api().count(new JobQuery(List.of(), EnumSet.of(JobState.WAITING), g, 0)) > 0) shown.add(g);
    return shown;
  }

  private Map<String, String> holds() throws ApiException {
    if (holds == null) holds = inv.api().holds();
    return holds;
  }

  /** The notices of the held groups that waiting jobs among {@code jobs} are in (the holds read once). */
  List<String> heldNotices(List<Job> jobs) throws ApiException {
    return notices(heldGroups(jobs));
  }

  /** The held groups that waiting jobs among {@code jobs} are in, in order (the holds read once). */
  Set<String> heldGroups(List<Job> jobs) throws ApiException {
    boolean grouped = jobs.stream().anyMatch(j -> j.state() == JobState.WAITING && j.spec().group() != null);
    if (holds == null) {
      if (!grouped) return Set.of();
      holds = inv.api().holds();
    }
    Set<String> shown = new TreeSet<>();
    for (Job j : jobs) {
      String g = j.spec().group();
      if (j.state() == JobState.WAITING && g != null && holds.containsKey(g)) shown.add(g);
    }
    return shown;
  }

  /** The notice of each held group in {@code groups}. */
  List<String> notices(Set<String> groups) {
    return groups.stream().map(g -> "gq: group " + PrintableText.escape(g) + " is held: " + PrintableText.escape(holds.get(g)))
        .toList();
  }

  /** What the table of {@code jobs} shows besides them: why they wait, held groups, progress. */
  JobTableContext context(List<Job> jobs) throws ApiException {
    JobTableContext c = waits(jobs).withProgress(progress(jobs)).withPositions(shownPositions(jobs)).withNotes(notes(jobs));
    if (!clustered(jobs)) return c;
    sayUnreachable();
    return c.withUnreachable(unreachable().keySet());
  }

  /**
   * What a later page of a list printed in the first page's {@code shown} columns
   * ({@link PsCommand}) shows besides its jobs: {@code first}'s, with the page's own reasons,
   * places, estimates and notes.
   */
  JobTableContext later(JobTableContext first, List<Job> jobs, List<JobColumn> shown) throws ApiException {
    JobTableContext c = first.withWaitReasons(reasons(jobs));
    if (shown.contains(JobColumn.POS)) c = c.withPositions(positions(jobs));
    if (shown.contains(JobColumn.PROGRESS)) c = c.withProgress(progress(jobs));
    return shown.contains(JobColumn.NOTE) ? c.withNotes(notes(jobs)) : c;
  }

  /**
   * What one page of a list printed page by page shows besides its jobs ({@link PsListing}), the
   * notices said apart, once; {@code positions}: the waiting jobs' places, when POS is shown.
   */
  JobTableContext page(List<Job> jobs, Map<Long, Integer> positions) throws ApiException {
    boolean waiting = jobs.stream().anyMatch(j -> j.state() == JobState.WAITING);
    JobTableContext c = new JobTableContext(waiting ? reasons(jobs) : Map.of(), waiting ? holds().keySet() : Set.of(), now())
        .withProgress(progress(jobs)).withPositions(positions).withNotes(notes(jobs));
    return clustered(jobs) ? c.withUnreachable(unreachable().keySet()) : c;
  }

  /** Whether a live job among {@code jobs} runs on a Slurm cluster. */
  static boolean clustered(List<Job> jobs) {
    return jobs.stream().anyMatch(j -> j.clusterId() != null && !j.state().terminal());
  }

  /** Says which Slurm clusters do not answer, one line each. */
  void sayUnreachable() throws ApiException {
    unreachable().forEach((p, why) -> inv.io().err().println("gq: the Slurm cluster of profile " + p + " does not answer ("
        + why + "); its jobs show UNKNOWN and keep running there"));
  }

  /** The places in the queue of the queued jobs among {@code jobs}, counted over every waiting job. */
  Map<Long, Integer> positions(List<Job> jobs) throws ApiException {
    List<Long> queued = jobs.stream().filter(QueueOrder::queued).map(Job::id).toList();
    return queued.isEmpty() ? Map.of() : inv.api().queuePositions(queued);
  }

  private Map<String, String> unreachable() throws ApiException {
    if (unreachable == null) unreachable = inv.api().queueState().unreachable();
    return unreachable;
  }

  /** Why the waiting jobs among {@code jobs} wait: asked for them alone, so that no list holds the whole queue's reasons. */
  Map<Long, WaitReason> reasonsFor(List<Job> jobs) throws ApiException {
    return reasons(jobs);
  }

  private Map<Long, WaitReason> reasons(List<Job> jobs) throws ApiException {
    List<Long> waiting = jobs.stream().filter(j -> j.state() == JobState.WAITING).map(Job::id).toList();
    return waiting.isEmpty() ? Map.of() : inv.api().waitReasons(waiting);
  }

  private Instant now() throws ApiException {
    if (now == null) now = inv.api().now();
    return now;
  }

  /** The notes of the listed running jobs (idle, on an unwell GPU); none asked when NOTE is not shown. */
  Map<Long, String> notes(List<Job> jobs) throws ApiException {
    if (columns != null && !columns.contains(JobColumn.NOTE)) return Map.of();
    // asked once a run, when a listed job first runs on GPUs: each page of a long list would ask again
    if (hints == null) {
      JobHints h = JobHints.of(inv.api(), jobs);
      if (h == JobHints.NONE) return Map.of();
      hints = h;
    }
    return hints.notes(jobs);
  }

  /**
   * The estimates of the listed running jobs, in one request; none asked when no job runs or the
   * chosen columns leave PROGRESS out.
   */
  Map<Long, Estimate> progress(List<Job> jobs) throws ApiException {
    if (columns != null && !columns.contains(JobColumn.PROGRESS)) return Map.of();
    List<Long> running = jobs.stream().filter(j -> j.state() == JobState.RUNNING).map(Job::id).toList();
    return running.isEmpty() ? Map.of() : inv.api().progress(running);
  }

  /**
   * The places in the queue of the listed waiting jobs, counted over every waiting job (the list may
   * be filtered); none asked when POS is not shown.
   */
  private Map<Long, Integer> shownPositions(List<Job> jobs) throws ApiException {
    boolean shown = columns != null ? columns.contains(JobColumn.POS)
        : jobs.stream().anyMatch(j -> j.state() == JobState.WAITING && j.spec().priority() != 0);
    return shown ? positions(jobs) : Map.of();
  }

  /** Why the listed waiting jobs wait, and which of their groups are held (with a notice for each). */
  private JobTableContext waits(List<Job> jobs) throws ApiException {
    boolean waiting = jobs.stream().anyMatch(j -> j.state() == JobState.WAITING);
    if (!waiting) return new JobTableContext(Map.of(), Set.of(), inv.api().now());
    Map<Long, WaitReason> reasons = reasons(jobs);
    List<String> notices = heldNotices(jobs);
    if (group == null) notices.forEach(inv.io().err()::println);
    return new JobTableContext(reasons, holds == null ? Set.of() : holds.keySet(), inv.api().now());
  }
}
