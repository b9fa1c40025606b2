package dev.gq.core.schedule;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.Plan;
import dev.gq.core.fair.Demand;
import dev.gq.core.fair.FairTurn;
import dev.gq.core.fair.FairView;
import dev.gq.core.fair.Policy;
import dev.gq.core.fair.UserLoad;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.job.QueueOrder;
import dev.gq.core.job.WaitReason;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import dev.gq.core.ledger.Ledger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shared machine's step of the plan, after the allocator has chosen GPUs: the GPUs the policy
 * keeps for interactive work are not offered to queued jobs, and each reservation of GPUs is kept
 * only when {@link FairTurn} lets this user take them now; a reservation left is dropped, its job
 * waiting with the turn's reason. The turn decides whether, never which GPUs: the allocator's
 * choice stands. Without a policy in force the plan is returned as it is. Every user's GPUs held
 * are counted from the leases (the lock is real even when a demand file is not), this user's from
 * its own jobs; what others wait for comes from their demand files. Pure.
 */
public final class FairPlan {
  private FairPlan() {}

  /** What this daemon's user waits for and holds now: the counts its demand file publishes. */
  public record Own(int jobsWaiting, int gpusWanted, int nextNeed, Instant oldestWait, int gpusHeld) {
    public static final Own NONE = new Own(0, 0, 0, null, 0);
  }

  /**
   * The counts of {@code l}'s GPU jobs at {@code now}: those that could start now (held jobs and
   * groups, jobs waiting for others, jobs whose --begin is later and jobs for a cluster left out),
   * the GPUs they want, the first one's need, since when (the later of the first one's submit and
   * the last start of a job here), and the GPUs of the active jobs.
   */
  public static Own own(Ledger l, Instant now) {
    return counts(l, now, false);
  }

  /**
   * The counts this user's demand file publishes: {@link #own}'s, with the jobs reserved and not yet
   * running still among those that wait. A launch takes its GPUs' leases only after the reservation,
   * and until then nothing else tells another user's gq that this user wants those GPUs: a demand
   * that ended at the reservation let it take them, and the launch then went back to the queue.
   */
  public static Own published(Ledger l, Instant now) {
    return counts(l, now, true);
  }

  private static Own counts(Ledger l, Instant now, boolean reservedWait) {
    int jobs = 0;
    int wanted = 0;
    Job first = null; // in queue order: a long queue is not sorted for it
    for (Job j : l.live().values()) {
      boolean reserved = reservedWait && j.state() == JobState.STARTING;
      if (!reserved && (!QueueOrder.queued(j) || !l.mayStart(j))) continue;
      if (j.spec().gpus() == 0 || j.spec().cluster() != null) continue;
      if (!reserved && j.spec().begin() != null && now.isBefore(j.spec().begin())) continue;
      if (first == null || QueueOrder.ORDER.compare(j, first) < 0) first = j;
      jobs++;
      wanted += j.spec().gpus();
    }
    int next = first == null ? 0 : first.spec().gpus();
    Instant firstSubmit = first == null ? null : first.submitTime();
    Set<String> held = new HashSet<>();
    Instant lastStart = null;
    for (Job j : l.live().values()) {
      if (!j.state().holdsGpus()) continue;
      if (j.gpus() != null) j.gpus().forEach(g -> held.add(g.uuid()));
      if (j.startTime() != null && (lastStart == null || j.startTime().isAfter(lastStart))) lastStart = j.startTime();
    }
    Instant since = firstSubmit == null ? null
        : lastStart != null && lastStart.isAfter(firstSubmit) ? lastStart : firstSubmit;
    return new Own(jobs, wanted, next, since, held.size());
  }

  /**
   * Why the machine policy refuses GPU jobs of {@code specs} (their {@code --time} is longer than
   * {@code max_time_on_shared}), naming the batch line ({@code lines}, when given) of the first; null when it does not.
   */
  public static String timeRefusal(List<JobSpec> specs, List<Integer> lines, FairView f) {
    if (!f.active()) return null;
    for (int i = 0; i < specs.size(); i++) {
      var spec = specs.get(i);
      if (spec.gpus() == 0) continue;
      String why = f.policy().policy().timeRefusal(spec.timeLimit());
      if (why == null) continue;
      return lines != null && i < lines.size() && specs.size() > 1 ? "line " + lines.get(i) + ": " + why : why;
    }
    return null;
  }

  /**
   * {@code spec} as queued under the machine policy: a GPU job of this machine without {@code --time}
   * gets the policy's longest ({@code max_time_on_shared}) as its own, so it stops there as TIMEOUT;
   * unchanged without a policy or such a limit.
   */
  public static JobSpec limited(JobSpec spec, FairView f) {
    if (!f.active() || spec.gpus() == 0 || spec.onCluster() || spec.timeLimit() != null) return spec;
    Duration max = f.policy().policy().limitFor(null);
    return max == null ? spec : spec.withTimeLimit(max);
  }

  /**
   * {@code gpus} with those the policy keeps for interactive work shown as taken by it, and those an
   * admin drained for every user's gq shown drained.
   */
  public static List<GpuStatus> shared(List<GpuStatus> gpus, FairView f) {
    Policy p = f.policy().policy();
    if (gpus == null || p.interactiveGpus().isEmpty() && f.machineDrains().isEmpty()) return gpus;
    List<GpuStatus> out = new ArrayList<>(gpus.size());
    for (GpuStatus g : gpus) {
      boolean open = g.state() == GpuState.FREE || g.state() == GpuState.SHARED;
      String drained = f.machineDrains().get(g.uuid());
      if (open && drained != null)
        out.add(new GpuStatus(g.index(), g.uuid(), g.name(), GpuState.DRAINED, null, g.processes(), g.totalBytes(), g.usedBytes(),
            drained + "; no new jobs until it resumes it (gq gpu resume " + g.index() + " --all-users)", null));
      else out.add(open && p.interactive(g.index(), g.uuid())
          ? taken(g, "kept for interactive work (interactive_gpus in the machine policy)", "kept for interactive work") : g);
    }
    return out;
  }

  private static GpuStatus taken(GpuStatus g, String detail, String by) {
    return new GpuStatus(g.index(), g.uuid(), g.name(), GpuState.EXTERNAL, g.ownerJobId(), g.processes(), g.totalBytes(),
        g.usedBytes(), detail, by, g.shares());
  }

  /**
   * {@code plan} with the reservations this user may not take now moved to free GPUs whose turn has
   * passed ({@link TurnGpus}) or dropped, their jobs waiting for the turn, told which GPUs wait for it.
   */
  public static Plan apply(Plan plan, List<GpuStatus> gpus, Ledger l, GpuObservation latest, FairView f, Instant now) {
    if (!f.active() || latest == null || latest.self() == null || !latest.reading().ok()
        || plan.reservations().stream().allMatch(r -> r.gpus().isEmpty()))
      return plan;
    Policy p = f.policy().policy();
    LeaseHolder.Instance self = latest.self();
    int shared = (int) latest.reading().devices().stream().filter(d -> !p.interactive(d.index(), d.uuid())).count();
    Map<String, UserLoad> loads = loads(own(l, now), latest, f, self, now);
    String me = self.user();
    List<Plan.Reservation> kept = new ArrayList<>();
    Map<Long, WaitReason> reasons = new HashMap<>(plan.waitReasons());
    Set<String> taken = new HashSet<>();
    plan.reservations().forEach(r -> r.gpus().forEach(g -> taken.add(g.uuid())));
    var offered = BookedPlan.offered(f, me, now);
    int released = 0;
    WaitReason turn = null;
    for (Plan.Reservation r : plan.reservations()) {
      int n = r.gpus().size();
      if (n == 0 || BookedPlan.ownBooked(r, f, self.uid(), now)) {
        kept.add(r); // a booker's own booked GPUs count as held already
        continue;
      }
      var free = TurnGpus.candidates(r, l.live().get(r.jobId()), gpus, taken, offered, f, now);
      FairTurn.Turn t = FairTurn.decide(new FairTurn.Situation(me, shared, loads, p, now), n, free);
      r.gpus().forEach(g -> taken.remove(g.uuid()));
      if (t.taken()) {
        kept.add(TurnGpus.onto(r, t.take(), gpus));
        taken.addAll(t.take());
        UserLoad u = loads.get(me);
        loads.put(me, new UserLoad(me, u.held() + n, Math.max(0, u.wanted() - n), u.nextNeed(), u.oldestWait()));
      } else {
        WaitReason why = TurnGpus.naming(t.reason(), free, gpus, p.fairTurn(), now);
        reasons.put(r.jobId(), why);
        released += n;
        if (turn == null) turn = why;
      }
    }
    TurnGpus.busyToTurn(reasons, l.live(), released, turn);
    return new Plan(kept, reasons);
  }

  /**
   * Every user's load: this user's from {@code mine} plus its other daemons (their leases and
   * demand files), the others' wants from their demand files and their GPUs held from the leases,
   * by uid, with each free GPU whose booking's window has begun held by its booker; a user who
   * holds GPUs and waits for none counts too.
   */
  static Map<String, UserLoad> loads(Own mine, GpuObservation latest, FairView f, LeaseHolder.Instance self, Instant now) {
    Map<Integer, String> names = new LinkedHashMap<>();
    Map<Integer, Integer> held = new HashMap<>();
    Map<Integer, UserLoad> wants = new LinkedHashMap<>();
    names.put(self.uid(), self.user());
    for (DeviceReading d : latest.reading().devices()) {
      GpuLease lease = latest.lease(d.uuid());
      Set<Integer> holders = new HashSet<>();
      if (lease.state() == GpuLease.State.HELD && lease.holder() != null && lease.holder().counted()) {
        if (!lease.holder().of(self)) holders.add(lease.holder().instance().uid());
        names.putIfAbsent(lease.holder().instance().uid(), lease.holder().instance().user());
      }
      if (lease.state() == GpuLease.State.SHARED)
        for (LeaseShare s : lease.shares()) {
          if (s.holder() == null || !s.holder().counted() || s.holder().of(self)) continue;
          holders.add(s.holder().instance().uid());
          names.putIfAbsent(s.holder().instance().uid(), s.holder().instance().user());
        }
      var booking = BookedPlan.bookingNow(f, d.uuid(), now);
      if (lease.state() == GpuLease.State.FREE && d.processes().isEmpty() && booking != null) {
        holders.add(booking.uid());
        names.putIfAbsent(booking.uid(), booking.user());
      }
      for (int uid : holders) held.merge(uid, 1, Integer::sum);
    }
    for (Demand d : f.demands()) {
      names.putIfAbsent(d.uid(), d.user());
      UserLoad u = new UserLoad(d.user(), 0, d.gpusWanted(), d.nextNeed(), d.oldestWait());
      wants.merge(d.uid(), u, UserLoad::plus);
    }
    Map<String, UserLoad> out = new LinkedHashMap<>();
    Set<Integer> uids = new LinkedHashSet<>(names.keySet());
    for (int uid : uids) {
      String name = names.get(uid);
      if (uid != self.uid() && (name.equals(self.user()) || out.containsKey(name))) name = name + " (uid " + uid + ")";
      UserLoad w = wants.getOrDefault(uid, new UserLoad(name, 0, 0, 0, null));
      int h = held.getOrDefault(uid, 0);
      if (uid == self.uid()) {
        UserLoad m = new UserLoad(name, mine.gpusHeld(), mine.gpusWanted(), mine.nextNeed(), mine.oldestWait());
        if (w.active()) m = m.plus(new UserLoad(name, 0, w.wanted(), w.nextNeed(), w.oldestWait()));
        out.put(name, new UserLoad(name, m.held() + h, m.wanted(), m.nextNeed(), m.oldestWait()));
      } else {
        out.put(name, new UserLoad(name, h, w.wanted(), w.nextNeed(), w.oldestWait()));
      }
    }
    return out;
  }
}
