package dev.gq.core.job;

import java.util.Collection;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * The newest-attempt rule: which job stands for a retry lineage or a key. A job is replaced by any
 * later job (a higher id) of the same lineage ({@link Job#lineage}), or by any later job with the
 * same key (the same cell of a sweep submitted again); the newest attempt of a lineage is its
 * highest id. The ledger asks it of its live jobs, and the history's SQL states the same rule
 * over the history ({@code JobSql.SUPERSEDED}, {@code Lineages}), checked against this class by a
 * test. Pure.
 */
public final class Attempts {
  private Attempts() {}

  /** Whether {@code later} replaces {@code earlier}. */
  public static boolean replaces(Job later, Job earlier) {
    if (later.id() <= earlier.id()) return false;
    if (later.lineage() == earlier.lineage()) return true;
    String key = earlier.spec().key();
    return key != null && Objects.equals(key, later.spec().key());
  }

  /** Whether some job of {@code all} replaces {@code job}. */
  public static boolean replaced(Job job, Collection<Job> all) {
    return all.stream().anyMatch(k -> replaces(k, job));
  }

  /** The newest job of lineage {@code lineage} among {@code all}, if any is there. */
  public static Optional<Job> newest(long lineage, Collection<Job> all) {
    return all.stream().filter(j -> j.lineage() == lineage).max(Comparator.comparingLong(Job::id));
  }
}
