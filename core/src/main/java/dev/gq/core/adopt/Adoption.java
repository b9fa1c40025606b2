package dev.gq.core.adopt;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.Ownership;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.SpecRules;
import dev.gq.core.proc.ProcessIdentity;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Whether a process started by hand may become a job ({@code gq adopt}), and the one event that
 * makes it one: {@code JobAdopted}, RUNNING at once on the GPUs it uses ({@link AdoptedGpus}).
 * Refused, with the one line to show, when the process is gone or a zombie, is not the caller's, is
 * the daemon or one of its ancestors, has no command line, is already a live job's process (by the
 * ownership rule: its tag, its session or group, or an adopted job's tree), belongs to a job of any
 * gq (this one's ended jobs and other instances' alike: it carries a GQ_JOB_TAG, is or runs under a
 * gq job shim, or holds a GPU lease file open), when its GPUs cannot be its own (one another gq's
 * lease holds included), or the key is taken. Its environment is never read or stored. Pure.
 */
public final class Adoption {
  private Adoption() {}

  /** What the user asked: the process and the labels to give the job (each may be null). */
  public record AdoptAsk(Candidate candidate, String name, String group, String key) {}

  public static Decision<AdoptOutcome> decide(Ledger l, AdoptAsk ask, GpuObservation obs, List<GpuStatus> classified,
      Instant now, Supplier<String> tags) {
    Candidate c = ask.candidate();
    String bad = processProblem(l, c);
    if (bad != null) return Decision.refuse(bad);
    AdoptedGpus.Result gpus = AdoptedGpus.of(c.pid(), c.ref(), obs, classified);
    if (gpus.refusal() != null) return Decision.refuse(gpus.refusal());
    JobSpec spec = new JobSpec(c.argv(), c.cwd() == null ? "/" : c.cwd(), Map.of(), gpus.gpus().size(), ask.name(),
        ask.group(), ask.key());
    String specBad = SpecRules.check(spec);
    if (specBad != null) return Decision.refuse(specBad);
    String keyBad = keyTaken(l, ask.key());
    if (keyBad != null) return Decision.refuse(keyBad);
    long id = l.nextId();
    var identity = ProcessIdentity.adoptedProcess(c.pid(), c.info().startTicks(), c.bootId());
    var event = new LedgerEvent.JobAdopted(id, spec, tags.get(), c.stdoutPath(), identity, gpus.gpus(),
        c.startTime() != null ? c.startTime() : now, now);
    return Decision.accept(List.of(event), new AdoptOutcome(id, gpus.gpus(), c.stdoutPath(), gpus.pids()));
  }

  /** Why the process itself cannot be adopted, or null. */
  static String processProblem(Ledger l, Candidate c) {
    long pid = c.pid();
    if (c.info() == null || c.info().zombie())
      return "process " + pid + " does not exist (it has ended, or is not visible here); check the PID with 'ps -p " + pid + "'";
    if (pid <= 1) return "process " + pid + " is the system's init; gq adopts only runs started by hand";
    if (c.uid() != c.callerUid())
      return "process " + pid + " belongs to " + (c.uid() < 0 ? "another user" : "uid " + c.uid()) + ", not to you (uid "
          + c.callerUid() + "); gq adopts only your own processes";
    if (c.daemonLineage().contains(c.ref()))
      return "process " + pid + " is the gq daemon or one of the processes that started it; adopt the run itself instead";
    for (Job j : l.live().values())
      if (j.state().active() && Ownership.owns(j, c.facts()))
        return "process " + pid + " is already job " + j.id() + "'s" + (j.adopted() ? " (adopted)" : "")
            + "; see 'gq show " + j.id() + "'";
    String job = gqJob(c);
    if (job != null) return "process " + pid + " " + job + "; gq adopts only runs started by hand, never a job of any gq";
    if (c.argv().isEmpty())
      return "process " + pid + " has no command line (a kernel thread, or it is exiting); gq adopts only runs started from a command";
    return null;
  }

  /** What shows that the process is some gq's job (its signals are that gq's alone), or null. */
  private static String gqJob(Candidate c) {
    if (c.shimPid() == c.pid()) return "is a gq job's shim";
    if (c.shimPid() > 0) return "runs under gq job shim " + c.shimPid();
    if (c.tag() != null) return "carries a gq job's tag (GQ_JOB_TAG): it is a job of another gq, or was started from one";
    if (!c.leaseFiles().isEmpty()) return "holds the GPU lease " + c.leaseFiles().get(0) + " open: it is a gq job's";
    return null;
  }

  private static String keyTaken(Ledger l, String key) {
    if (key == null) return null;
    Ledger.KeyHolder h = l.keys().get(key);
    if (h == null || h.state().unsuccessful()) return null;
    return "key '" + key + "' is already " + h.state() + " as job " + h.jobId() + "; adopt with another --key, or none";
  }
}
