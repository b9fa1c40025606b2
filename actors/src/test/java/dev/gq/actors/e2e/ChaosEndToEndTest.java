package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.actors.e2e.ChaosWorkload.Plan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fault injection against the real daemon: a seeded workload of jobs (random GPU counts,
 * durations, exit codes and signals, some with a child and a setsid grandchild holding fake CUDA
 * contexts) is submitted over time while the daemon is killed with SIGKILL and restarted, some
 * kills aimed between a reservation and its launch. At the end every promise is checked: right
 * terminal state and real exit code for every job, no job lost or run twice, no GPU shared, no
 * process left, every GPU FREE. Settings: {@link ChaosSettings}; how to run it:
 * docs/reliability.md. It is an end-to-end test: {@code ./mvnw -B verify} runs it, {@code ./mvnw
 * test} does not. Each run draws one seed (or takes {@code -Dgq.chaos.seed=N}), prints it and the
 * command that replays it first, and names both in any failure, so a failure on CI reproduces
 * with the printed command (the same seed draws the same jobs, gaps and kills; the daemon's
 * timing still varies).
 */
class ChaosEndToEndTest {
  private static final Set<String> LIVE = Set.of("WAITING", "HELD", "STARTING", "RUNNING", "CANCELLING");

  @TempDir Path tmp;

  @Test
  void jobsExitCodesAndGpusSurviveRepeatedDaemonKills() {
    ChaosSettings s = ChaosSettings.fromSystemProperties();
    System.out.println("chaos: " + s + "\nchaos: replay with " + s.replay());
    Duration limit = Duration.ofMinutes(10).plusSeconds(5L * s.jobs() + 30L * s.kills());
    assertTimeoutPreemptively(limit, () -> runNamingTheSeed(s),
        () -> "the chaos run with seed " + s.seed() + " did not finish in " + limit + "; replay: " + s.replay());
  }

  /** Runs the workload; any failure names the seed and the command that replays it. */
  private void runNamingTheSeed(ChaosSettings s) throws Exception {
    try {
      run(s);
    } catch (Exception | AssertionError e) {
      throw new AssertionError("chaos seed " + s.seed() + ": " + e.getMessage() + "\nreplay: " + s.replay(), e);
    }
  }

  private void run(ChaosSettings s) throws Exception {
    long t0 = System.nanoTime();
    Path ledger = tmp.resolve("ledger");
    List<Plan> plans = ChaosWorkload.plans(new Random(s.seed()), s.jobs(), s.gpus());
    try (Gqd g = Gqd.start(tmp, s.gpus(), Map.of("GQ_TEST_LAUNCH_DELAY_MS", String.valueOf(s.launchDelayMs())))) {
      ChaosSubmitter submitter = new ChaosSubmitter(g, ledger, plans, new Random(s.seed() + 1), s.gapMs());
      AtomicInteger next = new AtomicInteger(s.jobs());
      Random killerRandom = new Random(s.seed() + 3);
      // Kills spread over the time the submits take (half the longest gap per job, on average).
      int uptime = s.kills() == 0 ? 1000 : s.jobs() * s.gapMs() / 2 / s.kills();
      // A probe is a short one-GPU job, queued only when an aimed kill finds nothing else to wait for.
      ChaosFaults faults = new ChaosFaults(g, submitter, new Random(s.seed() + 2), s.kills(), uptime,
          () -> new Plan(next.getAndIncrement(), Math.min(1, s.gpus()), 200, 0, 0, -1, -1, -1, -1, 0),
          pid -> insideKiller(next.getAndIncrement(), pid, s, killerRandom));
      Thread thread = new Thread(submitter, "chaos-submitter");
      thread.start();
      try {
        faults.run();
        Gqd.await("every job to be submitted", Duration.ofMinutes(5), () -> submitter.idle() || submitter.failure != null);
      } finally {
        thread.interrupt();
        thread.join();
      }
      if (submitter.failure != null) throw new AssertionError("submitting failed; replay: " + s.replay(), submitter.failure);

      JsonNode all = awaitSettled(g, submitter.ids.values(), Duration.ofSeconds(120 + 3L * submitter.plans.size()));
      List<String> strays = ChaosChecker.strays(g);
      JsonNode gpus = awaitGpusFree(g, Duration.ofSeconds(60));

      ChaosChecker checker = new ChaosChecker();
      submitter.findings.forEach(f -> checker.violations.add(new ChaosChecker.Violation(null, f)));
      ChaosLedger book = ChaosLedger.read(ledger);
      ChaosJournal journal = ChaosJournal.read(g.data.resolve("gq.db"));
      checker.jobs(submitter.plans, submitter.ids, all, book, journal);
      checker.overlaps(book);
      checker.gpus(gpus);
      checker.strays(strays);

      ChaosReport report = new ChaosReport(s, g, faults, journal, book, checker);
      String summary = report.summary(submitter.plans.size(), submitter.lostReplies.get(), (System.nanoTime() - t0) / 1_000_000_000L);
      report.keep(summary);
      System.out.println(summary);
      if (!checker.violations.isEmpty()) fail(report.failure(summary));
      assertTrue(faults.kills.size() >= s.kills(), summary);
      assertTrue(faults.windowKills() >= 1, "no kill landed between a reservation and its launch: " + summary);
    }
  }

  /**
   * A one-GPU job that kills the daemon that launched it as its first act: either it runs on for
   * 6 s (the restarted daemon must adopt it by its tag), or its main process exits at once and a
   * child of its session lingers 8 s (the restarted daemon must not end it before that child).
   */
  private static Plan insideKiller(int n, long daemonPid, ChaosSettings s, Random r) {
    boolean linger = r.nextBoolean();
    return new Plan(n, Math.min(1, s.gpus()), linger ? 100 : 6000, 3 * r.nextInt(2), 0, -1, -1, linger ? 8000 : -1, -1, daemonPid);
  }

  /**
   * Waits until {@code gq ps --all} shows no live job, and returns that listing. Gives up early,
   * 30 s after the journal has recorded the end of every job (the listing should agree by then),
   * or at {@code timeout}; the checks then report the jobs it still shows as live.
   */
  private static JsonNode awaitSettled(Gqd g, java.util.Collection<Long> ids, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    long journalDone = 0;
    JsonNode last = null;
    while (System.nanoTime() < end) {
      ChaosClient.Attempt a = ChaosClient.send(g, "ps", "--all", "--json");
      if (a.result() != null && a.result().code() == 0) {
        last = a.result().json();
        if (live(last).isEmpty()) return last;
      }
      if (journalDone == 0 && ChaosJournal.read(g.data.resolve("gq.db")).allEnded(ids)) journalDone = System.nanoTime();
      if (journalDone != 0 && System.nanoTime() - journalDone > Duration.ofSeconds(30).toNanos()) break;
      Thread.sleep(250);
    }
    System.out.println("chaos: gave up waiting for every job to end; still live in gq ps --all: " + live(last));
    if (last == null) throw new AssertionError("gq ps --all --json never answered\n" + g.daemonLog());
    return last;
  }

  private static List<String> live(JsonNode all) {
    List<String> out = new java.util.ArrayList<>();
    if (all != null) for (JsonNode j : all) if (LIVE.contains(j.get("state").asText())) out.add(j.get("id") + " " + j.get("state"));
    return out;
  }

  /** Waits (a fresh GPU reading may be due) until every GPU is FREE; returns the last reading either way. */
  private static JsonNode awaitGpusFree(Gqd g, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    while (true) {
      JsonNode gpus = g.gpus();
      boolean free = true;
      for (JsonNode gpu : gpus) free &= gpu.get("state").asText().equals("FREE");
      if (free || System.nanoTime() > end) return gpus;
      Thread.sleep(100);
    }
  }
}
