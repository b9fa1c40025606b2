package dev.gq.cli;

/**
 * The rules for the short texts a user attaches to a job (name, group, key): not empty or blank,
 * at most {@value #MAX_LENGTH} characters, no control characters. Pure; the caller decides whether
 * a problem is a usage error or a refusal and says where the text came from.
 */
final class Labels {
  static final int MAX_LENGTH = 200;

  private Labels() {}

  /** The problem with {@code value}, worded with {@code what} ("--group", "GQ_GROUP"), or null. */
  static String problem(String what, String value) {
    if (value.isEmpty()) return what + " must not be empty";
    if (value.isBlank()) return what + " must not be blank";
    if (value.length() > MAX_LENGTH) {
      return what + " must be at most " + MAX_LENGTH + " characters (it has " + value.length() + ")";
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 32 || c == 127) return what + " must not contain control characters";
    }
    return null;
  }

  /** Checks a value given on the command line; a problem is a usage error. */
  static String checkOption(String option, String value) {
    if (value == null) return null;
    String problem = problem(option, value);
    if (problem != null) throw new UsageException(problem);
    return value;
  }
}
