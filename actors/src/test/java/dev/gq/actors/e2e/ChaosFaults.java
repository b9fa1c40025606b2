package dev.gq.actors.e2e;

import dev.gq.actors.e2e.ChaosWorkload.Plan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Kills the daemon with SIGKILL at random moments and starts it again, at least the wanted number
 * of times. Some kills are aimed at the window between reservation and launch: they wait until
 * {@code gq ps} shows a STARTING job (the daemon sleeps before each launch, GQ_TEST_LAUNCH_DELAY_MS)
 * and kill at once. Whether a kill really landed in that window is read from the journal while the
 * daemon is down: the jobs whose last stored event is their reservation. Kills go on past the
 * wanted number until one has landed there (with a probe job queued when nothing else is).
 */
final class ChaosFaults {
  private static final int EXTRA_TRIES = 12;

  /** One kill: whether it was aimed, where the journal stood, and which jobs were STARTING then. */
  record Kill(int n, boolean aimed, long journalOrdering, Set<Long> starting) {}

  private final Gqd g;
  private final ChaosSubmitter submitter;
  private final Random random;
  private final int wanted;
  private final Supplier<Plan> probe;
  final List<Kill> kills = new ArrayList<>();

  ChaosFaults(Gqd g, ChaosSubmitter submitter, Random random, int wanted, Supplier<Plan> probe) {
    this.g = g;
    this.submitter = submitter;
    this.random = random;
    this.wanted = wanted;
    this.probe = probe;
  }

  long windowKills() {
    return kills.stream().filter(k -> !k.starting().isEmpty()).count();
  }

  void run() throws Exception {
    int extra = 0;
    while (kills.size() < wanted || (windowKills() == 0 && extra++ < EXTRA_TRIES)) {
      boolean aimed = kills.isEmpty() || kills.size() >= wanted || random.nextInt(2) == 0;
      Thread.sleep(300 + random.nextInt(2700));
      if (aimed && submitter.idle()) submitter.add(probe.get());
      if (aimed) awaitStarting(Duration.ofSeconds(30));
      g.killDaemon();
      ChaosJournal j = ChaosJournal.read(g.data.resolve("gq.db"));
      Kill k = new Kill(kills.size() + 1, aimed, j.lastOrdering(), j.starting());
      kills.add(k);
      System.out.println("chaos: kill " + k.n() + (aimed ? " (aimed)" : "") + ", STARTING then: " + k.starting());
      g.startDaemon();
    }
  }

  /** Polls until some job is STARTING; false when none showed up in time (then it kills anyway). */
  private boolean awaitStarting(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      Gqd.Attempt a = g.tryGq("ps", "--state", "STARTING", "--json");
      if (a.result() != null && a.result().code() == 0 && !a.result().json().isEmpty()) return true;
      Thread.sleep(20);
    }
    return false;
  }
}
