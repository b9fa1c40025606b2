package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random rounds of several users' daemons applying the fair-turn rule to one pool of
 * GPUs: no GPU is given twice, no GPU stays free beyond the turn while a waiting job could start
 * on GPUs free that long, an over-share user never takes a GPU in a waiting user's turn, and
 * every job starts (nobody waits for ever).
 */
class FairTurnSimulationTest {
  static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
  static final Duration TURN = Duration.ofSeconds(30);
  static final Duration LONGEST_JOB = Duration.ofSeconds(1810);
  static final Duration LONGEST_STEP = Duration.ofSeconds(20);

  @Test
  void randomSharedMachinesStarveNobodyAndLeaveNoGpuIdleBeyondTheTurn() {
    long rounds = 0;
    for (int seed = 0; seed < 120; seed++) rounds += run(new Random(seed), false, 2);
    assertTrue(rounds > 20_000, "ran " + rounds + " rounds");
  }

  @Test
  void aDaemonThatNeverTakesWhatIsLeftForItDelaysOthersByOneTurnOnly() {
    for (int seed = 0; seed < 40; seed++) run(new Random(1000 + seed), true, 2);
  }

  @Test
  void withSingleGpuJobsEveryWaitingUserStartsWithinABoundedTime() {
    for (int seed = 0; seed < 120; seed++) run(new Random(2000 + seed), false, 1);
  }

  /** One random machine until its queues drain; the number of rounds it took. */
  private static long run(Random r, boolean withSilentUser, int largestNeed) {
    int gpus = 2 + r.nextInt(7);
    int users = 2 + r.nextInt(4);
    int cap = r.nextBoolean() ? Policy.UNLIMITED : 1 + r.nextInt(gpus);
    int always = r.nextInt(4) == 0 ? Math.max(cap == Policy.UNLIMITED ? 1 : cap, gpus - 1) : Policy.UNLIMITED;
    if (cap != Policy.UNLIMITED && always < cap) always = cap;
    Policy policy = new Policy(cap, always, List.of(), null, Set.of(), TURN);
    SharedBox box = new SharedBox(gpus, policy, T0);
    if (withSilentUser) box.silent.add("u0");
    String where = "machine: " + gpus + " GPUs, " + users + " users, cap " + cap + ", always " + always;
    Instant now = T0;
    long round = 0;
    int maxNeed = Math.min(largestNeed, Math.min(gpus, always));
    for (; round < 400 || !box.idleExcept(box.silent); round++) {
      assertTrue(round < 200_000, "the queues never drained: " + where);
      now = now.plusSeconds(1 + r.nextInt(20));
      if (round < 400) {
        for (int u = 0; u < users; u++)
          if (r.nextInt(15) == 0)
            box.submit("u" + u, 1 + r.nextInt(maxNeed), Duration.ofSeconds(10 + r.nextInt(1801)), now);
      }
      box.roundUntilSettled(now, box.shuffled(r));
      box.assertNoGpuIdleBeyondTheTurn(now, where);
    }
    if (largestNeed == 1) {
      // each GPU frees at least once per longest job (+ its turn, + a round); the longest-waiting
      // user below the share gets the next one, so a user waits at most one such period per
      // GPU-sized group of users ahead of it, and one more for its own turn
      Duration period = LONGEST_JOB.plus(TURN).plus(LONGEST_STEP);
      Duration bound = period.multipliedBy((users + gpus - 1) / gpus + 1);
      assertTrue(box.longestDrought.compareTo(bound) <= 0,
          "a waiting user started nothing for " + box.longestDrought + ", over " + bound + " (" + where + ")");
    }
    return round;
  }
}
