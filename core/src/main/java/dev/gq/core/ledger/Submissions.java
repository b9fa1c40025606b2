package dev.gq.core.ledger;

import dev.gq.core.alloc.GpuFit;
import dev.gq.core.job.Dependency;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.ledger.Ledger.KeyHolder;
import dev.gq.core.ledger.Ledger.SubmitOutcome;
import dev.gq.core.ledger.LedgerEvent.JobSubmitted;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Submit decisions, one spec or a batch: the spec's rules, the visible GPU count, the key (a live or
 * successful holder skips the submit, which is not an error), then the dependencies. A batch is
 * decided in one pass over a ledger folded as it goes, all or nothing: the first refused line
 * refuses the whole batch and names the line. Pure.
 */
public final class Submissions {

  /**
   * The most jobs one batch may queue: a batch is one write, and a write of 100,000 jobs outlasts
   * the journal's time limit for one write on a busy machine.
   */
  public static final int MAX_BATCH = 20_000;

  private Submissions() {}

  /**
   * Why {@code spec} cannot wait for live job {@code prerequisite}: one of them runs on this machine and
   * the other on a Slurm cluster (or on another profile's cluster), where neither side can see the
   * other's end in time. Null when they run in the same place or the prerequisite has ended.
   */
  static String mixedPlaces(Ledger l, JobSpec spec, long prerequisite) {
    var p = l.live().get(prerequisite);
    if (p == null || Objects.equals(p.spec().cluster(), spec.cluster())) return null;
    String where = p.spec().onCluster() ? "on the Slurm cluster of profile " + p.spec().cluster() : "on this machine";
    String mine = spec.onCluster() ? "on the Slurm cluster of profile " + spec.cluster() : "on this machine";
    return "job " + prerequisite + " runs " + where + " and this job would run " + mine
        + "; a job can only wait for jobs that run in the same place: submit both with the same --to";
  }

  /** Decides one submit. */
  public static Decision<SubmitOutcome> one(Ledger l, JobSpec given, SubmitContext in) {
    JobSpec spec = groupShare(l, given);
    String bad = refusal(spec, in);
    if (bad == null) bad = overLimit(l, 1, in.maxLive());
    if (bad != null) return Decision.refuse(bad);
    SubmitOutcome skip = keySkip(l, spec.key());
    if (skip != null) return Decision.accept(List.of(), skip);
    List<Prerequisite> ps = new ArrayList<>();
    for (Dependency d : spec.after()) {
      var r = Dependencies.resolve(l, d, in.facts());
      if (r.refusal() != null) return Decision.refuse(r.refusal());
      String mixed = mixedPlaces(l, spec, d.jobId());
      if (mixed != null) return Decision.refuse(mixed);
      ps.add(r.prerequisite());
    }
    long id = l.nextId();
    var ev = new JobSubmitted(id, spec, in.tags().get(), in.logPaths().apply(id), null, ps, in.now());
    return Decision.accept(List.of(ev), new SubmitOutcome(id, false, JobState.WAITING, null));
  }

  /**
   * Decides a batch: one outcome per spec, in order. {@code lines} gives each spec's line of the
   * input, for the refusal ("line 12: ...; nothing was submitted").
   */
  public static Decision<List<SubmitOutcome>> batch(Ledger l, List<JobSpec> specs, List<Integer> lines, SubmitContext in) {
    if (specs.size() > MAX_BATCH)
      return Decision.refuse("the batch has " + specs.size() + " jobs and one batch may queue at most " + MAX_BATCH
          + "; split it into parts of at most " + MAX_BATCH + " lines (split -l " + MAX_BATCH + "); nothing was submitted");
    String full = overLimit(l, specs.size(), in.maxLive());
    if (full != null) return Decision.refuse(full + "; nothing was submitted");
    List<LedgerEvent> events = new ArrayList<>();
    List<SubmitOutcome> outcomes = new ArrayList<>(specs.size());
    Ledger folded = l;
    for (int i = 0; i < specs.size(); i++) {
      Decision<SubmitOutcome> d = one(folded, specs.get(i), in);
      if (d.refused()) return Decision.refuse("line " + lines.get(i) + ": " + d.refusal() + "; nothing was submitted");
      outcomes.add(d.result());
      for (LedgerEvent e : d.events()) {
        events.add(e);
        folded = folded.apply(e);
      }
    }
    return Decision.accept(sharingEnvironment(events), outcomes);
  }

  /**
   * A batch's events with the environment stored once: every line after the first job runs with
   * the same environment, so its event refers to the first job's instead of carrying a copy.
   */
  static List<LedgerEvent> sharingEnvironment(List<LedgerEvent> events) {
    JobSubmitted first = null;
    List<LedgerEvent> out = new ArrayList<>(events.size());
    for (LedgerEvent e : events) {
      if (e instanceof JobSubmitted s && s.sameAs() == null && !s.spec().env().isEmpty()) {
        if (first == null) first = s;
        else if (s.spec().env().equals(first.spec().env())) e = s.sharing(first.jobId(), s.spec().withEnv(Map.of()));
      }
      out.add(e);
    }
    return out;
  }

  /**
   * {@code spec} as its group's count of shared jobs per GPU has it ({@code gq groups G --per-gpu
   * K}): a GPU job of this machine in such a group shares its GPUs, with the group's K unless it gave
   * its own --per-gpu.
   */
  static JobSpec groupShare(Ledger l, JobSpec spec) {
    Integer k = spec.group() == null ? null : l.settings().perGpu().get(spec.group());
    if (k == null || spec.gpus() == 0 || spec.onCluster()) return spec;
    var need = spec.gpuNeed();
    if (need != null && need.perGpu() > 0) return spec.withGpuNeed(GpuNeed.of(need.vramMiB(), need.types(), true,
        need.perGpu()));
    return spec.withGpuNeed(GpuNeed.of(need == null ? 0 : need.vramMiB(), need == null ? List.of() : need.types(),
        true, k));
  }

  /** Why {@code adding} more live jobs would be too many, or null. */
  static String overLimit(Ledger l, int adding, int max) {
    int live = l.live().size();
    if (live + (long) adding <= max) return null;
    return "cannot queue " + adding + " more job(s): " + live + " are live (waiting or running) and gq holds at most "
        + max + "; wait for some to end, cancel some (gq cancel), or submit fewer at once";
  }

  /** Why the spec cannot be stored as asked, or null. */
  static String refusal(JobSpec spec, SubmitContext in) {
    String bad = SpecRules.check(spec);
    if (bad != null) return bad;
    if (spec.onCluster()) return null; // the cluster's GPUs, which Slurm counts
    if (spec.gpus() > 0 && in.gpuCount() < 0)
      return "job asks for " + spec.gpus() + " GPU(s) but 0 are visible ("
          + (in.gpuError() == null ? "no GPU reading yet" : in.gpuError()) + "); see 'gq gpu', or use -g 0 for a CPU-only job";
    if (spec.gpus() > in.gpuCount() && spec.gpus() > 0)
      return "job asks for " + spec.gpus() + " GPU(s) but this machine has " + in.gpuCount()
          + " visible; ask for at most " + in.gpuCount();
    return GpuFit.refusal(spec, in.devices());
  }

  /** The skip when {@code key} is held by a job that is live or succeeded; null when the key is free. */
  static SubmitOutcome keySkip(Ledger l, String key) {
    if (key == null) return null;
    KeyHolder h = l.keys().get(key);
    if (h == null || h.state().unsuccessful()) return null;
    String group = heldGroupOf(l, h.jobId());
    String msg = group == null ? KeyTaken.message(key, h.state(), h.jobId())
        : KeyTaken.message(key, "HELD", h.jobId()) + " (group " + group + " is held: " + l.holds().get(group) + ")";
    return new SubmitOutcome(h.jobId(), true, h.state(), msg);
  }

  /** The held group of waiting job {@code id} (shown as HELD), or null. */
  private static String heldGroupOf(Ledger l, long id) {
    Job j = l.live().get(id);
    if (j == null || j.state() != JobState.WAITING || j.spec().group() == null) return null;
    return l.holds().containsKey(j.spec().group()) ? j.spec().group() : null;
  }
}
