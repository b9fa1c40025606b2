package dev.gq.core.fair;

/**
 * What reading the machine policy gave: the policy in force ({@link Policy#NONE} when there is no
 * file, or when it was refused) and, when the file exists but cannot be used (untrusted, not TOML,
 * a bad key), the one line that says why. {@code gq who} shows both; the daemon logs the problem
 * once per change of the file.
 */
public record PolicyReading(Policy policy, String problem) {
  public static final PolicyReading ABSENT = new PolicyReading(Policy.NONE, null);

  public static PolicyReading refused(String problem) {
    return new PolicyReading(Policy.NONE, problem);
  }

  /** Whether a policy file is in force (present, trusted and valid). */
  public boolean inForce() {
    return problem == null && policy != Policy.NONE;
  }
}
