package dev.gq.core.alloc;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.Durations;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.job.Job;
import dev.gq.core.job.WaitReason.GpuHolder;
import dev.gq.core.job.WaitReason;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Places waiting jobs on FREE GPUs: oldest first, first-fit backfill (a younger job that fits goes
 * ahead of an older one that does not), lowest indices, all or nothing, each job only on GPUs
 * that meet its need of memory and type ({@link GpuFit}). CPU-only jobs are placed
 * at once, up to a cap on how many run at once. Backfill has a bound, so that a job needing several GPUs is not passed over for ever by
 * younger jobs needing fewer: once the first job needing several GPUs that does not fit has waited
 * {@code gatherAfter} since its submit, GPUs gather for it: no younger job gets a GPU until it has started (each says
 * so in its wait reason). It gathers only when this gq's own jobs hold enough GPUs to make up what
 * it lacks (GPUs held by outside processes or another gq may never free up). Pure: the Scheduler
 * persists each reservation of the plan as a JobReserved event.
 *
 * <p>A shared job ({@code --share}) goes on FREE or SHARED GPUs that fit it, where the memory its
 * shared jobs declared plus its own plus the headroom ({@link PlanRules#headroomMiB}) fits the
 * card's total, while no job there asked for a smaller cap of jobs per GPU ({@code --per-gpu}) and
 * none of them uses more than it declared; the fullest such card first (SHARED before FREE, then
 * least left), so that whole cards stay free for exclusive jobs. Exclusive jobs take only FREE GPUs,
 * so never join a SHARED one.
 */
public final class Allocator {
  private Allocator() {}

  /** As below, with no bounds (unbounded backfill, any number of CPU-only jobs at once). */
  public static Plan plan(List<Job> waiting, List<GpuStatus> gpus, Map<Long, WaitReason> blocked) {
    return plan(waiting, gpus, blocked, PlanRules.NONE);
  }

  /**
   * @param waiting WAITING jobs, oldest first
   * @param gpus the classified GPUs; null when no reading has been taken yet
   * @param blocked job id → reason it may not start now (held queue, held group); not placed
   * @param rules the moment of the plan, the bound on backfill, the room for CPU-only jobs
   */
  public static Plan plan(List<Job> waiting, List<GpuStatus> gpus, Map<Long, WaitReason> blocked, PlanRules rules) {
    Instant now = rules.now();
    Duration gatherAfter = rules.gatherAfter();
    int cpuRoom = rules.cpuRoom();
    Map<String, Integer> groupRoom = new HashMap<>(rules.groupRoom());
    List<GpuStatus> free = new ArrayList<>();
    if (gpus != null) {
      // A UUID listed twice in one reading is ambiguous: place it on neither, never on both.
      Map<String, Long> seen = gpus.stream().collect(Collectors.groupingBy(GpuStatus::uuid, Collectors.counting()));
      gpus.stream().filter(g -> g.state() == GpuState.FREE && seen.get(g.uuid()) == 1)
          .sorted(Comparator.comparingInt(GpuStatus::index)).forEach(free::add);
    }
    Map<Long, List<GpuStatus>> kept = keep(free, waiting, blocked, rules.keptFor());
    Map<String, GpuStatus> sharedNow = new LinkedHashMap<>();
    if (gpus != null) {
      Map<String, Long> seen = gpus.stream().collect(Collectors.groupingBy(GpuStatus::uuid, Collectors.counting()));
      for (GpuStatus g : gpus)
        if (g.state() == GpuState.SHARED && g.detail() == null && seen.get(g.uuid()) == 1) sharedNow.put(g.uuid(), g);
    }
    long headroom = rules.headroomMiB();
    List<Plan.Reservation> placed = new ArrayList<>();
    Map<Long, WaitReason> reasons = HashMap.newHashMap(waiting.size());
    WaitReason gathering = null;
    // the same words for every job that needs as many GPUs and finds as many free: made once a plan
    Said said = new Said();
    for (Job j : keptFirst(waiting, kept)) {
      // empty maps are not asked: with a long queue, each lookup boxing the job's id was much of a plan's garbage
      WaitReason block = blocked.isEmpty() ? null : blocked.get(j.id());
      int n = j.spec().gpus();
      String group = j.spec().group();
      Integer room = group == null ? null : groupRoom.get(group);
      if (block != null) reasons.put(j.id(), block);
      else if (j.spec().begin() != null && now.isBefore(j.spec().begin()))
        reasons.put(j.id(), new WaitReason.Begins(j.spec().begin(), now));
      else if (room != null && room <= 0)
        reasons.put(j.id(), new WaitReason.GroupAtMax(group, rules.maxRunning(group)));
      else if (n == 0 && cpuRoom <= 0) reasons.put(j.id(), new WaitReason.CpuJobsAtMax());
      else if (n == 0) {
        placed.add(new Plan.Reservation(j.id(), List.of()));
        cpuRoom--;
        if (room != null) groupRoom.put(group, room - 1);
      }
      else if (gpus == null) reasons.put(j.id(), new WaitReason.NoGpuReading());
      else if (j.spec().shares() && gathering != null) reasons.put(j.id(), gathering);
      else if (j.spec().shares()) {
        List<GpuStatus> mine = new ArrayList<>(offered(j, kept.getOrDefault(j.id(), List.of()), rules));
        mine.addAll(offered(j, free, rules));
        List<GpuStatus> fit = shareable(j, mine, offered(j, sharedNow, rules), headroom);
        if (fit.size() < n) {
          reasons.put(j.id(), SharedFit.waiting(j.spec(), gpus, sharedNow, headroom));
          continue;
        }
        List<GpuSlot> slots = new ArrayList<>();
        for (GpuStatus g : fit.subList(0, n)) {
          slots.add(new GpuSlot(g.uuid(), g.index()));
          free.removeIf(x -> x.uuid().equals(g.uuid()));
          kept.values().forEach(l -> l.removeIf(x -> x.uuid().equals(g.uuid())));
          sharedNow.put(g.uuid(), SharedFit.with(g, j));
        }
        placed.add(new Plan.Reservation(j.id(), slots));
        if (room != null) groupRoom.put(group, room - 1);
      }
      else if (!kept.isEmpty() && kept.containsKey(j.id()) && n <= fitting(j, offered(j, kept.get(j.id()), rules)).size() + fitting(j, offered(j, free, rules)).size()) {
        List<GpuStatus> mine = new ArrayList<>(fitting(j, offered(j, kept.remove(j.id()), rules)));
        mine.addAll(fitting(j, offered(j, free, rules)));
        List<GpuSlot> slots = mine.subList(0, n).stream().map(g -> new GpuSlot(g.uuid(), g.index())).toList();
        free.removeIf(g -> slots.stream().anyMatch(x -> x.uuid().equals(g.uuid())));
        placed.add(new Plan.Reservation(j.id(), slots));
        if (room != null) groupRoom.put(group, room - 1);
      }
      else if (gathering != null) reasons.put(j.id(), gathering);
      else if (n <= fitting(j, offered(j, free, rules)).size()) {
        List<GpuSlot> slots = fitting(j, offered(j, free, rules)).subList(0, n).stream().map(g -> new GpuSlot(g.uuid(), g.index())).toList();
        free.removeIf(g -> slots.stream().anyMatch(x -> x.uuid().equals(g.uuid())));
        placed.add(new Plan.Reservation(j.id(), slots));
        if (room != null) groupRoom.put(group, room - 1);
      } else if (gathers(j, n, fitting(j, offered(j, free, rules)).size(), fitting(j, offered(j, gpus, rules)), now, gatherAfter)) {
        List<GpuStatus> kept4 = fitting(j, offered(j, free, rules));
        reasons.put(j.id(), new WaitReason.Gathering(waiting(j, kept4.size(), gpus, said), gatherAfter));
        gathering = new WaitReason.GatheringFor(j.id(), n, gatherAfter, kept4.stream().map(GpuStatus::index).toList());
      } else reasons.put(j.id(), waiting(j, fitting(j, offered(j, free, rules)).size(), gpus, said));
    }
    return new Plan(placed, reasons);
  }

  /**
   * Takes out of {@code free} each GPU kept for a waiting job that may start ({@code keptFor}: a
   * preemption freed it for that job), so that no other job gets it; by job, lowest index first. A
   * GPU kept for a job that is gone, may not start now, or does not fit it goes to anyone.
   */
  private static Map<Long, List<GpuStatus>> keep(List<GpuStatus> free, List<Job> waiting, Map<Long, WaitReason> blocked,
      Map<String, Long> keptFor) {
    if (keptFor.isEmpty()) return new HashMap<>();
    Map<Long, Job> may = new HashMap<>();
    for (Job j : waiting) if (!blocked.containsKey(j.id())) may.put(j.id(), j);
    Map<Long, List<GpuStatus>> kept = new HashMap<>();
    free.removeIf(g -> {
      Long to = keptFor.get(g.uuid());
      if (to == null || !may.containsKey(to) || !GpuFit.fits(may.get(to).spec(), g)) return false;
      kept.computeIfAbsent(to, x -> new ArrayList<>()).add(g);
      return true;
    });
    return kept;
  }

  /** {@code waiting} with the jobs GPUs are kept for first, each group in its order. */
  private static List<Job> keptFirst(List<Job> waiting, Map<Long, List<GpuStatus>> kept) {
    if (kept.isEmpty()) return waiting;
    List<Job> out = new ArrayList<>(waiting.size());
    for (Job j : waiting) if (kept.containsKey(j.id())) out.add(j);
    for (Job j : waiting) if (!kept.containsKey(j.id())) out.add(j);
    return out;
  }

  /**
   * The GPUs shared job {@code j} may go on now, fullest first: the SHARED ones of {@code sharedNow}
   * and the FREE ones of {@code free} where it fits ({@link SharedFit#fits}).
   */
  private static List<GpuStatus> shareable(Job j, List<GpuStatus> free, Map<String, GpuStatus> sharedNow, long headroom) {
    List<GpuStatus> out = new ArrayList<>();
    for (GpuStatus g : sharedNow.values()) if (SharedFit.fits(j.spec(), g, headroom)) out.add(g);
    for (GpuStatus g : free) if (SharedFit.fits(j.spec(), g, headroom)) out.add(g);
    out.sort(Comparator.comparingInt((GpuStatus g) -> g.state() == GpuState.SHARED ? 0 : 1)
        .thenComparingLong(g -> SharedFit.leftAfter(j.spec(), g, headroom)).thenComparingInt(GpuStatus::index));
    return out;
  }

  /** Those of {@code gpus} that {@code j} may go on: all of them unless it needs memory or a type ({@link GpuFit}). */
  private static List<GpuStatus> fitting(Job j, List<GpuStatus> gpus) {
    if (j.spec().gpuNeed() == null) return gpus;
    return gpus.stream().filter(g -> GpuFit.fits(j.spec(), g)).toList();
  }

  /** Those of {@code shared} (by UUID) offered to {@code j}. */
  private static Map<String, GpuStatus> offered(Job j, Map<String, GpuStatus> shared, PlanRules rules) {
    if (rules.offered() == PlanRules.ALL) return shared;
    Map<String, GpuStatus> out = new LinkedHashMap<>();
    shared.forEach((u, g) -> { if (rules.offered().test(j, g)) out.put(u, g); });
    return out;
  }

  /** Those of {@code gpus} offered to {@code j} ({@link PlanRules#offered}): all unless a booking keeps some from it. */
  private static List<GpuStatus> offered(Job j, List<GpuStatus> gpus, PlanRules rules) {
    if (rules.offered() == PlanRules.ALL) return gpus;
    return gpus.stream().filter(g -> rules.offered().test(j, g)).toList();
  }

  /** Why {@code j} waits for GPUs, {@code free} of those it fits being free; {@code said}: the plan's words so far. */
  private static WaitReason waiting(Job j, int free, List<GpuStatus> gpus, Said said) {
    int n = j.spec().gpus();
    if (j.spec().gpuNeed() != null) return GpuFit.waiting(n, j.spec().gpuNeed(), free, gpus);
    return said.busy(n, free, gpus);
  }

  /**
   * The words of one plan for the jobs that need {@code n} GPUs and find {@code free} of them free,
   * made once for each pair: the last pair asked is kept apart, as a long queue asks the same one
   * job after job.
   */
  private static final class Said {
    private final Map<Long, WaitReason> all = new HashMap<>();
    private long lastKey = -1;
    private WaitReason last;

    WaitReason busy(int n, int free, List<GpuStatus> gpus) {
      long key = ((long) n << 32) | free;
      if (key == lastKey) return last;
      WaitReason r = all.get(key);
      if (r == null) all.put(key, r = busyGpus(n, free, gpus));
      lastKey = key;
      last = r;
      return r;
    }
  }

  /**
   * Whether GPUs gather for {@code j}: it needs several GPUs (a 1-GPU job gets the first that frees
   * anyway, being older), has waited long enough, and this gq's jobs hold what it lacks.
   */
  private static boolean gathers(Job j, int n, int free, List<GpuStatus> gpus, Instant now, Duration gatherAfter) {
    if (n < 2 || j.submitTime() == null || now.equals(Instant.MAX)) return false;
    if (Duration.between(j.submitTime(), now).compareTo(gatherAfter) < 0) return false;
    long ours = gpus.stream().filter(g -> g.state() == GpuState.RESERVED || g.state() == GpuState.RUNNING
        || g.state() == GpuState.SHARED && !g.shares().isEmpty()).count();
    return free + ours >= n;
  }

  /** Why a job wanting {@code n} GPUs waits when {@code free} are free: every GPU that is not, and what holds it. */
  static WaitReason.GpusBusy busyGpus(int n, int free, List<GpuStatus> gpus) {
    return new WaitReason.GpusBusy(n, free, gpus.stream().filter(g -> g.state() != GpuState.FREE).map(GpuHolder::of).toList());
  }

  /** "needs 2 GPUs, 1 free (GPU 0: job 4; GPU 2: outside process)". */
  static String busy(int n, int free, List<GpuStatus> gpus) {
    return busyGpus(n, free, gpus).text();
  }
}
