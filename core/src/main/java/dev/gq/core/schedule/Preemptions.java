package dev.gq.core.schedule;

import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.job.Durations;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import dev.gq.core.ledger.Decision;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.ledger.LedgerEvent.JobPreemptRequested;
import dev.gq.core.ledger.LedgerEvent;
import dev.gq.core.ledger.Preemption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The preempt decision, all or nothing: each named job must be running (or starting), and a job
 * named to take the freed GPUs ({@code --for}) must be waiting, free to start but for the GPUs, and
 * need no more GPUs than the preempted jobs hold, so that it is sure to get them, and no preempted
 * job may be a shared one (its GPU may keep other shares, so no whole GPU is freed). Each preempted job
 * keeps its GPUs while it saves; the runner signals it, and the freed GPUs go to that job in the
 * same write that records the end. Answered with one line per job. Pure.
 */
public final class Preemptions {
  private Preemptions() {}

  /** What the user asked: which jobs, the signal, to the group or the main process, the grace, the job to make room for, and whether to queue the resume at once. */
  public record PreemptAsk(List<Long> ids, int signal, boolean group, Duration grace, Long forJob, boolean requeue) {
    public PreemptAsk {
      ids = List.copyOf(ids);
    }
  }

  public static Decision<List<String>> decide(Ledger l, PreemptAsk a, Instant now) {
    return decide(l, a, now, List.of());
  }

  /**
   * Decides a preemption; {@code devices} (the last good reading) tell whether the GPUs freed fit
   * what the job {@code --for} names needs of each GPU (none known: any fits).
   */
  public static Decision<List<String>> decide(Ledger l, PreemptAsk a, Instant now, List<DeviceReading> devices) {
    if (a.ids().isEmpty()) return Decision.refuse("name the job to preempt: gq preempt JOB");
    if (a.grace() == null || a.grace().isNegative() || a.grace().isZero())
      return Decision.refuse("--grace must be longer than 0 (for example 5m): the job needs time to save");
    if (a.grace().compareTo(Durations.LONGEST) > 0)
      return Decision.refuse("--grace must be at most " + Durations.days(Durations.LONGEST) + ", not " + Durations.format(a.grace()));
    List<Job> jobs = new ArrayList<>();
    for (long id : new LinkedHashSet<>(a.ids())) {
      Job j = l.live().get(id);
      String why = whyNot(j, id);
      if (why == null && a.forJob() != null && a.forJob() == id) why = "job " + id + " cannot make room for itself";
      if (why != null) return Decision.refuse(why);
      jobs.add(j);
    }
    Job forJob = null;
    if (a.forJob() != null) {
      String why = whyNotFor(l, jobs, a.forJob(), now);
      if (why == null) why = shared(jobs, a.forJob());
      if (why == null) why = unfit(l.live().get(a.forJob()), jobs, devices);
      if (why != null) return Decision.refuse(why);
      forJob = l.live().get(a.forJob());
    }
    List<LedgerEvent> events = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    for (Job j : jobs) {
      events.add(new JobPreemptRequested(j.id(), a.signal(), a.group(), a.grace(), a.forJob(), a.requeue(), now));
      lines.add(line(j, a, forJob));
    }
    return Decision.accept(events, lines);
  }

  private static String whyNot(Job j, long id) {
    if (j == null) return "job " + id + " is not running; only a running job can be preempted";
    if (j.spec().onCluster())
      return "job " + id + " runs on a Slurm cluster; preempting is for this machine's jobs: 'gq cancel " + id + "' stops it there";
    if (j.adopted())
      return "job " + id + " was adopted: gq did not start it, so it cannot ask it to save; stop it yourself, or 'gq cancel " + id + "'";
    return switch (j.state()) {
      case STARTING, RUNNING -> null;
      case PREEMPTING -> "job " + id + " is already being preempted";
      case CANCELLING -> "job " + id + " is being cancelled";
      case WAITING -> "job " + id + " has not started; 'gq hold " + id + "' keeps it from starting";
      default -> "job " + id + " is " + j.state() + "; only a running job can be preempted";
    };
  }

  private static String whyNotFor(Ledger l, List<Job> preempted, long forId, Instant now) {
    Job f = l.live().get(forId);
    if (f == null || f.state() != JobState.WAITING)
      return "job " + forId + " is not waiting" + (f == null ? "" : " (it is " + f.state() + ")")
          + "; --for names a waiting job to give the freed GPUs to";
    if (f.spec().gpus() == 0) return "job " + forId + " needs no GPU; drop --for";
    if (f.spec().begin() != null && f.spec().begin().isAfter(now))
      return "job " + forId + " may not start before " + f.spec().begin() + " (--begin); --for needs a job free to start";
    WaitReason blocked = l.blocked().get(forId);
    if (blocked != null) return "job " + forId + " may not start now (" + blocked.text() + "); --for needs a job free to start";
    int held = preempted.stream().mapToInt(j -> j.gpus().isEmpty() ? j.spec().gpus() : j.gpus().size()).sum();
    if (f.spec().gpus() > held)
      return "job " + forId + " needs " + f.spec().gpus() + " GPU(s) but the jobs preempted hold " + held
          + "; name more jobs to preempt";
    return null;
  }

  /**
   * Why {@code --for} cannot be kept when a preempted job is a shared one ({@code --share}): its GPU
   * may hold other shared jobs, of this gq or of another instance on the machine, that stay, so
   * preempting it frees no whole GPU to hand over; null when none is shared.
   */
  private static String shared(List<Job> preempted, long forId) {
    for (Job j : preempted)
      if (j.spec().shares())
        return "job " + j.id() + " shares its GPU" + (j.gpus().size() == 1 ? "" : "s") + " (--share): preempting it frees no"
            + " whole GPU to give to job " + forId + ", as other shared jobs may stay there; preempt it without --for";
    return null;
  }

  /** Why the GPUs of {@code preempted} are too few that fit what {@code f} needs of each GPU, or null. */
  private static String unfit(Job f, List<Job> preempted, List<DeviceReading> devices) {
    var need = f.spec().gpuNeed();
    if (need == null || devices.isEmpty()) return null;
    Map<String, DeviceReading> byUuid = new HashMap<>();
    devices.forEach(d -> byUuid.put(d.uuid(), d));
    long fit = preempted.stream().flatMap(j -> j.gpus().stream()).filter(g -> {
      var d = byUuid.get(g.uuid());
      return d == null || d.error() != null || need.fits(d.name(), d.totalBytes());
    }).count();
    if (f.spec().gpus() <= fit) return null;
    return "job " + f.id() + " needs " + f.spec().gpus() + " GPU(s) " + need.text() + " but only " + fit
        + " of the GPUs the jobs preempted hold fit; preempt jobs on GPUs that fit (gq gpu)";
  }

  /** "job 3: preempting (SIGTERM to its main process; stopped after 5m if it has not ended); its GPUs go to job 7". */
  private static String line(Job j, PreemptAsk a, Job forJob) {
    String to = a.group() ? "its process group" : "its main process";
    String s = "job " + j.id() + ": preempting (SIG" + Preemption.signalName(a.signal()) + " to " + to + "; stopped after "
        + Durations.format(a.grace()) + " if it has not ended)";
    if (forJob != null) s += "; its GPUs go to job " + forJob.id();
    if (a.requeue()) s += "; its resume joins the queue when it has stopped";
    else s += "; 'gq resume " + j.id() + "' continues it from its newest checkpoint";
    return s;
  }
}
