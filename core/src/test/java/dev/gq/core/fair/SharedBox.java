package dev.gq.core.fair;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A shared machine in a test: GPUs, each user's queue (first in, first out) and running jobs. A
 * round ends the jobs whose time is up, then lets each user's daemon, in the given order, start
 * its queue's head jobs as {@link FairTurn#decide} allows, seeing every user's load as the
 * demand files would publish it. A GPU taken is the lease: no second user can take it.
 */
final class SharedBox {
  record Job(String user, int need, Duration runs, Instant submitted) {}

  final int gpus;
  final Policy policy;
  final String[] holder;
  final Instant[] freeSince;
  final Instant[] ends;
  final Map<String, Deque<Job>> queues = new LinkedHashMap<>();
  /** Users whose daemon publishes demand but never starts anything (hung, yet its file looks live). */
  final List<String> silent = new ArrayList<>();
  /** When each user last started a job (or began to wait); the longest stretch a waiting user started nothing. */
  final Map<String, Instant> lastStart = new LinkedHashMap<>();
  Duration longestDrought = Duration.ZERO;

  SharedBox(int gpus, Policy policy, Instant start) {
    this.gpus = gpus;
    this.policy = policy;
    holder = new String[gpus];
    freeSince = new Instant[gpus];
    ends = new Instant[gpus];
    java.util.Arrays.fill(freeSince, start);
  }

  void submit(String user, int need, Duration runs, Instant now) {
    if (queues.getOrDefault(user, new ArrayDeque<>()).isEmpty()) lastStart.put(user, now);
    queues.computeIfAbsent(user, u -> new ArrayDeque<>()).add(new Job(user, need, runs, now));
  }

  int held(String user) {
    int n = 0;
    for (String h : holder) if (user.equals(h)) n++;
    return n;
  }

  int free() {
    int n = 0;
    for (String h : holder) if (h == null) n++;
    return n;
  }

  /** Each user's load as its demand file says it; the wait counts from the later of the first job's submit and the user's last start. */
  Map<String, UserLoad> loads() {
    Map<String, UserLoad> out = new LinkedHashMap<>();
    for (var e : queues.entrySet()) {
      Deque<Job> q = e.getValue();
      int wanted = q.stream().mapToInt(Job::need).sum();
      out.put(e.getKey(), new UserLoad(e.getKey(), held(e.getKey()), wanted, q.isEmpty() ? 0 : q.peek().need(),
          q.isEmpty() ? null : lastStart.get(e.getKey())));
    }
    return out;
  }

  /** One round at {@code now}: ends, then each daemon in {@code order} starts what the rule lets it. */
  void round(Instant now, List<String> order) {
    for (int g = 0; g < gpus; g++) {
      if (holder[g] != null && !ends[g].isAfter(now)) {
        holder[g] = null;
        freeSince[g] = now;
      }
    }
    for (String user : order) {
      if (silent.contains(user)) continue;
      Deque<Job> q = queues.getOrDefault(user, new ArrayDeque<>());
      while (!q.isEmpty()) {
        Job j = q.peek();
        FairTurn.Turn t = FairTurn.decide(new FairTurn.Situation(user, gpus, loads(), policy, now), j.need(), freeGpus());
        if (!t.taken()) break;
        assertTurnKept(user, j, t.take(), now);
        q.poll();
        Duration drought = Duration.between(lastStart.get(user), now);
        if (drought.compareTo(longestDrought) > 0) longestDrought = drought;
        lastStart.put(user, now);
        for (String uuid : t.take()) {
          int g = Integer.parseInt(uuid);
          if (holder[g] != null) throw new AssertionError("GPU " + g + " given twice");
          holder[g] = user;
          ends[g] = now.plus(j.runs());
        }
      }
    }
  }

  /**
   * Fails when {@code user}, going over the fair share by this start, took a GPU still in the turn
   * of another user below the share who waits.
   */
  private void assertTurnKept(String user, Job j, List<String> taken, Instant now) {
    int share = FairTurn.share(new FairTurn.Situation(user, gpus, loads(), policy, now));
    if (held(user) < share) return;
    boolean someoneBelowWaits = loads().values().stream()
        .anyMatch(u -> !u.user().equals(user) && u.waiting() && u.held() < share);
    for (String uuid : taken) {
      Instant since = freeSince[Integer.parseInt(uuid)];
      if (someoneBelowWaits && since.plus(policy.fairTurn()).isAfter(now))
        throw new AssertionError(user + " took GPU " + uuid + " in a waiting user's turn at " + now);
    }
  }

  List<FairTurn.FreeGpu> freeGpus() {
    List<FairTurn.FreeGpu> out = new ArrayList<>();
    for (int g = 0; g < gpus; g++) if (holder[g] == null) out.add(new FairTurn.FreeGpu(Integer.toString(g), freeSince[g]));
    return out;
  }

  /** The users in a random order: the daemons race. */
  List<String> shuffled(Random r) {
    List<String> order = new ArrayList<>(queues.keySet());
    Collections.shuffle(order, r);
    return order;
  }

  /** Rounds at {@code now} until no daemon starts anything more: each reacts to the others' new demand files. */
  void roundUntilSettled(Instant now, List<String> order) {
    int before;
    do {
      before = free();
      round(now, order);
    } while (free() < before);
  }

  /**
   * Fails when a GPU has stayed free longer than the turn while a user's first waiting job (its
   * daemon alive, within the always-limit) could start on GPUs that have all been free that long.
   */
  void assertNoGpuIdleBeyondTheTurn(Instant now, String where) {
    long passed = freeGpus().stream().filter(g -> !g.freeSince().plus(policy.fairTurn()).isAfter(now)).count();
    for (var e : queues.entrySet()) {
      Job head = e.getValue().peek();
      if (head == null || silent.contains(e.getKey())) continue;
      boolean allowed = held(e.getKey()) + head.need() <= policy.maxGpusPerUserAlways();
      if (allowed && head.need() <= passed)
        throw new AssertionError(passed + " GPUs free beyond the turn while " + e.getKey() + "'s job for " + head.need()
            + " waits at " + now + " (" + where + ")");
    }
  }

  boolean idleExcept(List<String> users) {
    return queues.entrySet().stream().allMatch(e -> users.contains(e.getKey()) || e.getValue().isEmpty());
  }

  boolean idle() {
    return queues.values().stream().allMatch(Deque::isEmpty);
  }
}
