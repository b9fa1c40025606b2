package dev.gq.core.lease;

/**
 * What one GPU's machine-wide lease said when it was read: FREE (no gq holds it), HELD (a gq job
 * holds it; {@code holder} null when the holder's line could not be read), BLOCKED (its name is
 * taken by a file that is no lease this user can take or test, see {@link LeaseRules};
 * {@code error} names it, its owner and who can clear it), or UNREADABLE (the lease could not be
 * checked; {@code error} says why). A GPU whose lease is not FREE is never placed.
 */
public record GpuLease(State state, LeaseHolder holder, String error) {

  public enum State { FREE, HELD, BLOCKED, UNREADABLE }

  public static final GpuLease FREE = new GpuLease(State.FREE, null, null);

  public static GpuLease held(LeaseHolder holder) {
    return new GpuLease(State.HELD, holder, null);
  }

  public static GpuLease blocked(String why) {
    return new GpuLease(State.BLOCKED, null, why);
  }

  public static GpuLease unreadable(String error) {
    return new GpuLease(State.UNREADABLE, null, error);
  }
}
