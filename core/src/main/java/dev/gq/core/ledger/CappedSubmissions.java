package dev.gq.core.ledger;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Ledger.SubmitOutcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A submit as one decision: a group's cap ({@code --max-running}) set in the same write as the jobs it
 * caps, so that none of them starts past it and a refused submit sets no cap; and each outcome saying
 * what keeps its job waiting (the held queue, its held group: {@link Queueing}), so that the caller
 * needs no second question. Pure.
 */
public final class CappedSubmissions {
  private CappedSubmissions() {}

  /** One spec; {@code maxRunning} (null: none) caps the spec's group. */
  public static Decision<SubmitOutcome> one(Ledger l, JobSpec spec, Integer maxRunning, SubmitContext in) {
    Cap cap = cap(l, spec.group(), maxRunning, in.now());
    if (cap.refusal() != null) return Decision.refuse(cap.refusal());
    Decision<SubmitOutcome> d = Submissions.one(cap.ledger(), spec, in);
    if (d.refused()) return d;
    return Decision.accept(concat(cap.events(), d.events()), told(d.result(), cap, spec.group()));
  }

  /** A batch; {@code maxRunning} (null: none) caps {@code group}, the batch's group. */
  public static Decision<List<SubmitOutcome>> batch(Ledger l, List<JobSpec> specs, List<Integer> lines, String group,
      Integer maxRunning, SubmitContext in) {
    Cap cap = cap(l, group, maxRunning, in.now());
    if (cap.refusal() != null) return Decision.refuse(cap.refusal() + "; nothing was submitted");
    Decision<List<SubmitOutcome>> d = Submissions.batch(cap.ledger(), specs, lines, in);
    if (d.refused()) return d;
    List<SubmitOutcome> out = new ArrayList<>(d.result().size());
    // one answer per group, not one per line: the lines of a long batch wait in memory for the whole
    Map<String, Queueing> told = new HashMap<>();
    for (int i = 0; i < specs.size(); i++) {
      SubmitOutcome o = d.result().get(i);
      Queueing q = told.computeIfAbsent(specs.get(i).group(), g -> queueing(cap.ledger(), g, cap.line()));
      out.add(new SubmitOutcome(o.jobId(), o.skipped(), o.state(), o.message(), q));
    }
    return Decision.accept(concat(cap.events(), d.events()), out);
  }

  /** The group's cap and the ledger once it is set; a refusal when it cannot be. */
  private record Cap(List<LedgerEvent> events, Ledger ledger, String line, String refusal) {}

  private static Cap cap(Ledger l, String group, Integer maxRunning, Instant now) {
    if (maxRunning == null) return new Cap(List.of(), l, null, null);
    if (group == null) return new Cap(List.of(), l, null, "--max-running caps a group: give --group GROUP or set GQ_GROUP");
    Decision<String> d = QueueControl.limit(l, group, maxRunning, now);
    if (d.refused()) return new Cap(List.of(), l, null, d.refusal());
    Ledger folded = l;
    for (LedgerEvent e : d.events()) folded = folded.apply(e);
    return new Cap(d.events(), folded, d.events().isEmpty() ? null : d.result(), null);
  }

  private static SubmitOutcome told(SubmitOutcome o, Cap cap, String group) {
    return new SubmitOutcome(o.jobId(), o.skipped(), o.state(), o.message(), queueing(cap.ledger(), group, cap.line()));
  }

  private static List<LedgerEvent> concat(List<LedgerEvent> a, List<LedgerEvent> b) {
    if (a.isEmpty()) return b;
    List<LedgerEvent> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** What {@code l} (the ledger once the submit is stored) says of a job of {@code group}. */
  private static Queueing queueing(Ledger l, String group, String capLine) {
    return new Queueing(l.queueHeld(), group == null ? null : l.holds().get(group), capLine);
  }
}
