package dev.gq.core.fair;

/**
 * What reading the machine policy gave: the policy in force ({@link Policy#NONE} when there is no
 * file, or when it was refused) and, when the file exists but cannot be used (untrusted, not TOML,
 * a bad key), the one line that says why: what is wrong and the fix as the file's reader wrote it,
 * then, once {@link #then} has decided, what gq does meanwhile. {@code gq who} shows both; the
 * daemon logs the problem once per change of the file.
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

  /**
   * What is in force once the file has been read as {@code read} while this reading was: a usable
   * file, or no file, is taken as read; a file that cannot be used keeps the policy in force before
   * it (a typo must not lift every cap), and its problem ends with the one consequence that is true:
   * the last good policy stays in force, or gq runs without a policy.
   */
  public PolicyReading then(PolicyReading read) {
    if (read.problem() == null) return read;
    return policy == Policy.NONE
        ? refused(read.problem() + "; until then gq runs without a policy")
        : new PolicyReading(policy, read.problem() + "; until then the last good policy stays in force");
  }
}
