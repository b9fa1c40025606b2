package dev.gq.core.lease;

import java.util.List;

/**
 * What one GPU's machine-wide lease said when it was read: FREE (no gq holds it), HELD (a gq job
 * holds it alone; {@code holder} null when the holder's line could not be read), SHARED (shared
 * jobs hold it together; {@code shares} lists the live ones, each with its holder and declared
 * memory, see {@link LeaseShare}), BLOCKED (its name, or one of its share names, is taken by a file
 * that is no lease this user can take or test, see {@link LeaseRules}; {@code error} names it, its
 * owner and who can clear it), or UNREADABLE (the lease could not be checked; {@code error} says
 * why). A GPU whose lease is HELD, BLOCKED or UNREADABLE is never placed; a SHARED one only for
 * another shared job whose memory fits beside {@code shares} ({@link LeaseRules#shareRefusal}).
 */
public record GpuLease(State state, LeaseHolder holder, String error, List<LeaseShare> shares) {

  public enum State { FREE, HELD, SHARED, BLOCKED, UNREADABLE }

  public static final GpuLease FREE = new GpuLease(State.FREE, null, null);

  public GpuLease {
    shares = shares == null ? List.of() : List.copyOf(shares);
  }

  public GpuLease(State state, LeaseHolder holder, String error) {
    this(state, holder, error, List.of());
  }

  public static GpuLease held(LeaseHolder holder) {
    return new GpuLease(State.HELD, holder, null);
  }

  /** Shared by the live {@code shares} (at least one). */
  public static GpuLease shared(List<LeaseShare> shares) {
    if (shares.isEmpty()) throw new IllegalArgumentException("a shared lease has at least one share");
    return new GpuLease(State.SHARED, null, null, shares);
  }

  public static GpuLease blocked(String why) {
    return new GpuLease(State.BLOCKED, null, why);
  }

  public static GpuLease unreadable(String error) {
    return new GpuLease(State.UNREADABLE, null, error);
  }
}
