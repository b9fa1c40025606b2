package dev.gq.cli;

import dev.gq.core.job.PrintableText;
import dev.gq.core.ledger.SpecRules;

/**
 * The rules for the short texts a user attaches to a job (name, group, key): not empty or blank,
 * at most {@value #MAX_LENGTH} characters, none of the characters {@link PrintableText} keeps off
 * the terminal (controls, line separators, bidirectional overrides). Pure; the caller decides whether
 * a problem is a usage error or a refusal and says where the text came from.
 */
final class Labels {
  static final int MAX_LENGTH = SpecRules.MAX_LABEL;

  private Labels() {}

  /** The problem with {@code value}, worded with {@code what} ("--group", "GQ_GROUP"), or null. */
  static String problem(String what, String value) {
    if (value.isEmpty()) return what + " must not be empty";
    if (value.isBlank()) return what + " must not be blank";
    if (value.length() > MAX_LENGTH) {
      return what + " must be at most " + MAX_LENGTH + " characters (it has " + value.length() + ")";
    }
    String hidden = PrintableText.problem(value);
    return hidden == null ? null : what + " " + hidden;
  }

  /** Checks a value given on the command line; a problem is a usage error. */
  static String checkOption(String option, String value) {
    if (value == null) return null;
    String problem = problem(option, value);
    if (problem != null) throw new UsageException(problem);
    return value;
  }
}
