package dev.gq.cli;

import dev.gq.core.ledger.SpecRules;

/**
 * A label given as an option's value (a job's name, group or key, a drain's reason), checked by
 * the one rule for labels ({@link SpecRules#labelProblem}); a problem is a usage error naming the
 * option.
 */
final class Labels {
  private Labels() {}

  /** Checks a value given on the command line; a problem is a usage error. */
  static String checkOption(String option, String value) {
    if (value == null) return null;
    String problem = SpecRules.labelProblem(option, value);
    if (problem != null) throw new UsageException(problem);
    return value;
  }
}
