package dev.gq.actors.e2e;

import java.util.concurrent.ThreadLocalRandom;

/**
 * The knobs of a fault-injection run, read from system properties (Maven passes {@code -D} on to
 * the tests): {@code gq.chaos.jobs} (60), {@code gq.chaos.kills} (5), {@code gq.chaos.seed} (random,
 * printed so the run can be replayed), {@code gq.chaos.gpus} (4), {@code gq.chaos.launchDelayMs}
 * (300: the daemon's sleep before each launch, which widens the window between reservation and
 * launch) and {@code gq.chaos.gapMs} (800: the longest pause between two submits).
 */
record ChaosSettings(int jobs, int kills, long seed, int gpus, int launchDelayMs, int gapMs) {

  static ChaosSettings fromSystemProperties() {
    String seed = System.getProperty("gq.chaos.seed", "");
    return new ChaosSettings(
        Integer.getInteger("gq.chaos.jobs", 60),
        Integer.getInteger("gq.chaos.kills", 5),
        seed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seed.strip()),
        Integer.getInteger("gq.chaos.gpus", 4),
        Integer.getInteger("gq.chaos.launchDelayMs", 300),
        Integer.getInteger("gq.chaos.gapMs", 800));
  }

  /** The Maven command that runs this workload again. */
  String replay() {
    return "./mvnw -B -pl actors -am test -Dtest=ChaosEndToEndTest -Dsurefire.failIfNoSpecifiedTests=false -Dgq.chaos.seed=" + seed + " -Dgq.chaos.jobs=" + jobs
        + " -Dgq.chaos.kills=" + kills + " -Dgq.chaos.gpus=" + gpus + " -Dgq.chaos.launchDelayMs=" + launchDelayMs
        + " -Dgq.chaos.gapMs=" + gapMs;
  }
}
