package dev.gq.core.schedule;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.fair.Demand;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code gq who} shows of each user on the machine: the GPUs their jobs hold and how many
 * jobs hold them (from the GPU leases, which every gq writes and which cannot be faked without
 * the lock), and how many of their jobs wait for how many GPUs since when (from their demand files;
 * this daemon's own user from its live counts). Users are told apart by uid. Pure.
 */
public final class FairWho {
  private FairWho() {}

  /** One user's line. */
  public record Row(String user, int uid, int gpusHeld, int jobsRunning, int jobsWaiting, int gpusWanted, Instant waitingSince) {}

  /**
   * The rows of everyone who holds or waits for GPUs: {@code latest}'s leases, the counted demand
   * files {@code others} (this daemon's own left out) and this daemon's counts {@code mine}; this
   * user first, then by GPUs held.
   */
  public static List<Row> rows(GpuObservation latest, List<Demand> others, FairPlan.Own mine, LeaseHolder.Instance self) {
    Map<Integer, String> names = new LinkedHashMap<>();
    Map<Integer, Integer> held = new LinkedHashMap<>();
    Map<Integer, Set<String>> jobs = new LinkedHashMap<>();
    if (self != null) names.put(self.uid(), self.user());
    if (latest != null && latest.reading().ok())
      for (DeviceReading d : latest.reading().devices()) {
        GpuLease lease = latest.lease(d.uuid());
        List<LeaseHolder> holders = new ArrayList<>();
        if (lease.state() == GpuLease.State.HELD && lease.holder() != null && lease.holder().counted()) holders.add(lease.holder());
        if (lease.state() == GpuLease.State.SHARED)
          for (LeaseShare s : lease.shares()) if (s.holder() != null && s.holder().counted()) holders.add(s.holder());
        Set<Integer> counted = new HashSet<>();
        for (LeaseHolder h : holders) {
          int uid = h.instance().uid();
          names.putIfAbsent(uid, h.instance().user());
          if (counted.add(uid)) held.merge(uid, 1, Integer::sum);
          jobs.computeIfAbsent(uid, k -> new HashSet<>()).add(h.instance().dataDir() + "#" + h.jobId());
        }
      }
    Map<Integer, int[]> waits = new LinkedHashMap<>();
    Map<Integer, Instant> since = new LinkedHashMap<>();
    List<Demand> all = new ArrayList<>(others);
    for (Demand d : all) {
      names.putIfAbsent(d.uid(), d.user());
      int[] w = waits.computeIfAbsent(d.uid(), k -> new int[2]);
      w[0] += d.jobsWaiting();
      w[1] += d.gpusWanted();
      if (d.oldestWait() != null) since.merge(d.uid(), d.oldestWait(), (a, b) -> a.isBefore(b) ? a : b);
    }
    if (self != null && mine != null) {
      int[] w = waits.computeIfAbsent(self.uid(), k -> new int[2]);
      w[0] += mine.jobsWaiting();
      w[1] += mine.gpusWanted();
      if (mine.oldestWait() != null) since.merge(self.uid(), mine.oldestWait(), (a, b) -> a.isBefore(b) ? a : b);
    }
    List<Row> rows = new ArrayList<>();
    Set<String> used = new HashSet<>();
    for (var e : names.entrySet()) {
      int uid = e.getKey();
      int[] w = waits.getOrDefault(uid, new int[2]);
      int h = held.getOrDefault(uid, 0);
      if (h == 0 && w[1] == 0) continue;
      String name = used.add(e.getValue()) ? e.getValue() : e.getValue() + " (uid " + uid + ")";
      rows.add(new Row(name, uid, h, jobs.getOrDefault(uid, Set.of()).size(), w[0], w[1], since.get(uid)));
    }
    int me = self == null ? -1 : self.uid();
    rows.sort(Comparator.comparing((Row r) -> r.uid() != me).thenComparing(r -> -r.gpusHeld()));
    return rows;
  }
}
