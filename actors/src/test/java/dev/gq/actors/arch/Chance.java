package dev.gq.actors.arch;

import java.util.Set;

/**
 * What counts as reading a clock or randomness: the system clock's methods, {@code now()} of every
 * {@code java.time} type, {@code new Date()}, {@code Calendar.getInstance}, and any use of the JDK's
 * random sources. A clock or random source passed in (an {@code InstantSource}, a seed) is not one.
 */
final class Chance {
  private Chance() {}

  private static final Set<String> RANDOM_TYPES = Set.of("java.util.Random", "java.security.SecureRandom",
      "java.util.concurrent.ThreadLocalRandom", "java.util.SplittableRandom");
  private static final Set<String> CALLS = Set.of("java.lang.System.currentTimeMillis", "java.lang.System.nanoTime",
      "java.lang.Math.random", "java.lang.StrictMath.random", "java.util.UUID.randomUUID", "java.time.Clock.system",
      "java.time.Clock.systemUTC", "java.time.Clock.systemDefaultZone", "java.time.Clock.tickMillis",
      "java.time.Clock.tickSeconds", "java.time.Clock.tickMinutes", "java.time.InstantSource.system",
      "java.util.Calendar.getInstance", "java.util.random.RandomGenerator.of", "java.util.random.RandomGenerator.getDefault",
      "java.util.random.RandomGeneratorFactory.of", "java.util.random.RandomGeneratorFactory.getDefault");

  /** Whether an access to {@code name} of {@code owner} ({@code fullName}: with its parameter types) reads one. */
  static boolean readsClockOrRandomness(String owner, String name, String fullName) {
    if (RANDOM_TYPES.contains(owner)) return true;
    if (CALLS.contains(owner + "." + name)) return true;
    if (owner.startsWith("java.time.") && name.equals("now")) return true;
    return fullName.equals("java.util.Date.<init>()");
  }
}
