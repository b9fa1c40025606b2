package dev.gq.core.fair;

import dev.gq.core.job.WaitReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The fair-turn rule one user's daemon applies before it starts a job on free GPUs. The fair share
 * is the machine's shared GPUs over the users with demand (holding or waiting, this user
 * included), at least 1, and at most the policy's {@code max_gpus_per_user}. A user with nobody
 * else below their share waiting takes the GPUs now: a lone user gets the whole machine. Among the
 * users below their share, the one waiting longest (since its last start) goes first; the others
 * leave it the turn, so they take turns and a heavy user's old backlog does not keep the light
 * ones waiting. A user who holds their share or more while another user below theirs waits
 * leaves each free GPU to that user for the policy's fair turn (30 s unless set), counted from
 * when the GPU became free; a GPU free longer than that goes to whoever takes it. So a waiting
 * user's daemon, which takes a GPU as soon as it sees it free, starts first; nobody waits on a
 * user whose daemon does not take what is left for it; and no GPU is kept idle beyond the turn.
 * {@code max_gpus_per_user_always} is a hard limit, no turn. gq never stops another user's job: the
 * rule only orders starts, and the leases still decide who holds a GPU. Pure.
 */
public final class FairTurn {
  private FairTurn() {}

  /** A free GPU and since when it has been free (or first seen free) by this daemon. */
  public record FreeGpu(String uuid, Instant freeSince) {}

  /**
   * What this daemon sees: its user, the machine's shared GPUs (those kept for interactive work
   * left out), every user's load (this user's from its live state, the others' from their demand
   * files), the policy and now.
   */
  public record Situation(String self, int sharedGpus, Map<String, UserLoad> users, Policy policy, Instant now) {}

  /**
   * The outcome for one job: the GPUs to take now (empty: leave them), why the job waits
   * otherwise, and when to decide again (null: when something changes).
   */
  public record Turn(List<String> take, WaitReason reason, Instant decideAgainAt) {
    public boolean taken() {
      return !take.isEmpty();
    }
  }

  /** The fair share in {@code s}: shared GPUs over the users with demand (this user counted), capped by the policy. */
  public static int share(Situation s) {
    long others = s.users().values().stream().filter(u -> !u.user().equals(s.self()) && u.active()).count();
    int share = Math.max(1, s.sharedGpus() / (int) (others + 1));
    return Math.min(share, s.policy().maxGpusPerUser());
  }

  /** Whether this user's job needing {@code need} GPUs may take them from {@code free} now (which, oldest free first). */
  public static Turn decide(Situation s, int need, List<FreeGpu> free) {
    UserLoad me = s.users().getOrDefault(s.self(), new UserLoad(s.self(), 0, 0, 0, null));
    int always = s.policy().maxGpusPerUserAlways();
    if (me.held() + need > always)
      return new Turn(List.of(), new WaitReason.UserLimit(s.self(), me.held(), always), null);
    List<FreeGpu> oldestFirst = new ArrayList<>(free);
    oldestFirst.sort(Comparator.comparing(FreeGpu::freeSince));
    int share = share(s);
    List<UserLoad> waitingBelow = s.users().values().stream()
        .filter(u -> !u.user().equals(s.self()) && u.waiting() && u.held() < share).toList();
    if (me.held() < share) {
      // among the users below the share, the one whose job has waited longest goes first
      Instant mine = me.oldestWait() == null ? s.now() : me.oldestWait();
      waitingBelow = waitingBelow.stream().filter(u -> u.oldestWait() != null && u.oldestWait().isBefore(mine)).toList();
    }
    if (waitingBelow.isEmpty()) return take(oldestFirst, need);
    return turnTaken(s, me, need, share, oldestFirst, waitingBelow);
  }

  /** The GPUs whose turn for {@code waiting} has passed, when enough; else the wait and when it may end. */
  private static Turn turnTaken(Situation s, UserLoad me, int need, int share, List<FreeGpu> oldestFirst, List<UserLoad> waiting) {
    Instant turnEnds = null;
    List<FreeGpu> passed = new ArrayList<>();
    for (FreeGpu g : oldestFirst) {
      Instant end = g.freeSince().plus(s.policy().fairTurn());
      if (!end.isAfter(s.now())) passed.add(g);
      else if (turnEnds == null) turnEnds = end;
    }
    if (passed.size() >= need) return take(passed, need);
    // the GPU whose turn ends next brings this job closer; decide again then
    Instant again = oldestFirst.size() >= need ? oldestFirst.get(need - 1).freeSince().plus(s.policy().fairTurn()) : turnEnds;
    return new Turn(List.of(), reason(s, me, share, waiting), again);
  }

  private static Turn take(List<FreeGpu> gpus, int need) {
    if (gpus.size() < need) return new Turn(List.of(), new WaitReason.FewerFree(need), null);
    return new Turn(gpus.subList(0, need).stream().map(FreeGpu::uuid).toList(), null, null);
  }

  /** "fair share: bob waits for 2 GPUs; alice holds 4 (the fair share is 2), so ..." */
  static WaitReason reason(Situation s, UserLoad me, int share, List<UserLoad> waiting) {
    return new WaitReason.FairShare(s.self(), me.held(), s.sharedGpus(), share,
        waiting.stream().map(u -> new WaitReason.Wanting(u.user(), u.wanted())).toList(), s.policy().fairTurn());
  }
}
