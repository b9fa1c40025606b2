package dev.gq.api;

import dev.gq.core.notify.NotifyTarget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The daemon's notification targets, as {@code gq notify} and {@code gq daemon status} see them:
 * the targets with their delivery counts and last failure, adding and removing one, and a test
 * message to each. Implemented by the daemon; a webhook's URL never crosses it to be printed, only
 * {@link NotifyTarget#shown()}.
 */
public interface NotifyApi {
  /**
   * A target with what its deliveries since the daemon started came to; {@code unsent} messages
   * handed to it and not yet delivered or given up, the oldest for {@code unsentFor} (0 and null
   * unless it is slow: that message has waited for seconds).
   */
  record TargetView(NotifyTarget target, long delivered, long failed, String lastError, Instant lastErrorAt, int unsent,
      Duration unsentFor) {
    public TargetView(NotifyTarget target, long delivered, long failed, String lastError, Instant lastErrorAt) {
      this(target, delivered, failed, lastError, lastErrorAt, 0, null);
    }
  }

  /** One target's answer to a test: {@code error} null when it was delivered. */
  record TestResult(String name, String shown, String error) {}

  List<TargetView> targets() throws ApiException;

  /** Stores {@code target} (its name given, or made from its kind) and returns it as stored. */
  NotifyTarget add(NotifyTarget target) throws ApiException;

  /** Removes the target named {@code name}; false when there is none. */
  boolean remove(String name) throws ApiException;

  /** Sends a test message to each target ({@code name} null) or to one, and says how each went. */
  List<TestResult> test(String name) throws ApiException;

  /** Stored events whose messages are not sent yet (0 when the notifier is up to date). */
  long behind() throws ApiException;

  /** Why the notifier's cursor cannot be stored, naming its file; null when it can. */
  default String cursorProblem() throws ApiException {
    return null;
  }

  /** Why {@code target} would fail on this machine (its program is not installed, with the package to install); null when not known to. */
  default String unsendable(NotifyTarget target) throws ApiException {
    return null;
  }
}
