package dev.gq.actors.e2e;

import dev.gq.actors.e2e.ChaosWorkload.Plan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * Kills the daemon with SIGKILL and starts it again, at least the wanted number of times, three
 * ways: at a random moment (TIMED); as soon as {@code gq ps} shows a STARTING job (AIMED: the
 * daemon sleeps GQ_TEST_LAUNCH_DELAY_MS before each launch, so the kill lands between reservation
 * and launch); and from inside a job, whose first act is to kill the daemon that launched it
 * (INSIDE: the kill lands between the launch and its record, or just after). Where each kill
 * really landed is read from the journal while the daemon is down: the jobs whose last stored
 * event is their reservation were STARTING. Kills go on past the wanted number until one has
 * landed there (with a probe job queued when nothing else is).
 */
final class ChaosFaults {
  private static final int EXTRA_TRIES = 12;

  enum How { TIMED, AIMED, INSIDE }

  /** One kill: how, where the journal stood, and which jobs were STARTING then. */
  record Kill(int n, How how, long journalOrdering, Set<Long> starting) {}

  private final Gqd g;
  private final ChaosSubmitter submitter;
  private final Random random;
  private final int wanted;
  private final int meanUptimeMillis;
  private final Supplier<Plan> probe;
  private final LongFunction<Plan> insideKiller;
  final List<Kill> kills = new ArrayList<>();

  /** {@code meanUptimeMillis}: how long the daemon runs between kills, on average (uniformly 0.3 s to twice that). */
  ChaosFaults(Gqd g, ChaosSubmitter submitter, Random random, int wanted, int meanUptimeMillis, Supplier<Plan> probe,
      LongFunction<Plan> insideKiller) {
    this.g = g;
    this.submitter = submitter;
    this.random = random;
    this.wanted = wanted;
    this.meanUptimeMillis = Math.max(1000, meanUptimeMillis);
    this.probe = probe;
    this.insideKiller = insideKiller;
  }

  long windowKills() {
    return kills.stream().filter(k -> !k.starting().isEmpty()).count();
  }

  long count(How how) {
    return kills.stream().filter(k -> k.how() == how).count();
  }

  void run() throws Exception {
    int extra = 0;
    while (kills.size() < wanted || (windowKills() == 0 && extra++ < EXTRA_TRIES)) {
      How how = next();
      Thread.sleep(300 + random.nextInt(2 * meanUptimeMillis - 300));
      switch (how) {
        case TIMED -> g.killDaemon();
        case AIMED -> {
          if (submitter.idle()) submitter.add(probe.get());
          awaitStarting(Duration.ofSeconds(30));
          g.killDaemon();
        }
        case INSIDE -> {
          submitter.submitNow(insideKiller.apply(g.process().pid()));
          // Killed by the job once it starts; if it has not started in time, killed here instead.
          g.process().waitFor(60, TimeUnit.SECONDS);
          g.killDaemon();
        }
      }
      ChaosJournal j = ChaosJournal.read(g.data.resolve("gq.db"));
      Kill k = new Kill(kills.size() + 1, how, j.lastOrdering(), j.starting());
      kills.add(k);
      System.out.println("chaos: kill " + k.n() + " " + how + ", STARTING then: " + k.starting());
      g.startDaemon();
    }
  }

  /** The first kill is aimed, the second from inside a job, then any way; extra ones are aimed. */
  private How next() {
    int n = kills.size();
    if (n == 0 || n >= wanted) return How.AIMED;
    if (n == 1) return How.INSIDE;
    return How.values()[random.nextInt(3)];
  }

  /** Polls until some job is STARTING; false when none showed up in time (then it kills anyway). */
  private boolean awaitStarting(Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      ChaosClient.Attempt a = ChaosClient.send(g, "ps", "--state", "STARTING", "--json");
      if (a.result() != null && a.result().code() == 0 && !a.result().json().isEmpty()) return true;
      Thread.sleep(20);
    }
    return false;
  }
}
