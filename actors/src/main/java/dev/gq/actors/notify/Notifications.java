package dev.gq.actors.notify;

import dev.gq.cli.ApiException;
import dev.gq.cli.NotifyApi;
import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NotifyTarget;
import dev.gq.core.notify.Routing;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The targets and their delivery: the daemon's side of {@link NotifyApi}, and {@link #deliver},
 * which the {@link Notifier} calls for each notice: every target that {@link Routing} says wants
 * it gets it, each retried with back-off ({@code backoff}, doubled after each try, {@link #TRIES}
 * tries) until delivered or given up; a target's failure never keeps the others from theirs. A
 * target whose last notice was given up gets one try per notice until one gets through.
 */
public final class Notifications implements NotifyApi {
  private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);
  static final int TRIES = 5;

  private final TargetFile file;
  private final Delivery delivery;
  private final Health health = new Health();
  private final Duration backoff;
  private final Clock clock;
  private final Duration poll;
  private volatile LongSupplier behind = () -> 0;

  Notifications(java.nio.file.Path dataDir, java.util.Map<String, String> env, int uid, Duration timeout,
      Duration backoff, Duration poll, Clock clock) {
    this.file = new TargetFile(dataDir);
    this.delivery = new Delivery(env, uid, timeout);
    this.backoff = backoff;
    this.poll = poll;
    this.clock = clock;
  }

  /**
   * The daemon's: GQ_NOTIFY_TIMEOUT_MS (30 s) bounds one send, GQ_NOTIFY_BACKOFF_MS (1 s, doubled
   * after each try) spaces the retries, GQ_NOTIFY_POLL_MS (2 s) is how often the notifier looks for
   * events it was not told of.
   */
  public static Notifications fromEnvironment(java.nio.file.Path dataDir, java.util.Map<String, String> env, int uid,
      Clock clock) {
    return new Notifications(dataDir, env, uid, millis(env, "GQ_NOTIFY_TIMEOUT_MS", 30_000), millis(env, "GQ_NOTIFY_BACKOFF_MS", 1000),
        millis(env, "GQ_NOTIFY_POLL_MS", 2000), clock);
  }

  private static Duration millis(java.util.Map<String, String> env, String name, long dflt) {
    String v = env.get(name);
    try {
      long n = v == null || v.isBlank() ? dflt : Long.parseLong(v.strip());
      if (n >= 10 && n <= 3_600_000) return Duration.ofMillis(n);
    } catch (NumberFormatException ignored) {
      // refused below
    }
    throw new IllegalArgumentException(name + "=" + v + " is not valid; use a whole number of milliseconds between 10 and 3600000");
  }

  public Duration poll() {
    return poll;
  }

  void behindFrom(LongSupplier behind) {
    this.behind = behind;
  }

  /** Sends {@code n} to every target that wants it; returns once each was delivered or given up. */
  void deliver(Notice n) throws InterruptedException {
    List<NotifyTarget> pending = new ArrayList<>();
    try {
      for (NotifyTarget t : file.read()) if (Routing.wants(n, t.on(), t.minRuntime())) pending.add(t);
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("cannot read the notification targets in {}: {}", file.path(), firstLine(e.getMessage()));
      return;
    }
    java.util.Set<String> wasDown = new java.util.HashSet<>();
    for (NotifyTarget t : pending) if (health.down(t.name())) wasDown.add(t.name());
    long wait = backoff.toMillis();
    for (int attempt = 1; !pending.isEmpty(); attempt++) {
      List<NotifyTarget> failed = new ArrayList<>();
      for (NotifyTarget t : pending) {
        try {
          delivery.send(n, t);
          health.delivered(t.name());
        } catch (Delivery.Failed f) {
          // a target that is down (its last notice was given up) gets one try, so that a dead
          // webhook does not hold every later notice to the others for a whole back-off
          if (attempt < TRIES && !wasDown.contains(t.name())) failed.add(t);
          else giveUp(n, t, f.getMessage());
        }
      }
      pending = failed;
      if (!pending.isEmpty()) {
        Thread.sleep(wait); // back-off between tries; this thread only delivers notices
        wait *= 2;
      }
    }
  }

  private void giveUp(Notice n, NotifyTarget t, String why) {
    health.failed(t.name(), why, clock.instant());
    LOG.warn("notification '{}' to target {} given up: {}", n.title(), t.name(), why);
  }

  @Override
  public List<TargetView> targets() throws ApiException {
    List<TargetView> out = new ArrayList<>();
    for (NotifyTarget t : read()) {
      Health.Of h = health.of(t.name());
      out.add(new TargetView(t, h.delivered(), h.failed(), h.lastError(), h.lastErrorAt()));
    }
    return out;
  }

  @Override
  public synchronized NotifyTarget add(NotifyTarget target) throws ApiException {
    List<NotifyTarget> all = new ArrayList<>(read());
    NotifyTarget t = target.name() != null ? target
        : new NotifyTarget(freeName(all, target.kind().word()), target.kind(), target.address(), target.argv(), target.on(),
            target.minRuntime());
    String problem = t.problem();
    if (problem != null) throw new ApiException(problem);
    if (all.stream().anyMatch(o -> o.name().equals(t.name())))
      throw new ApiException("a notification target named " + t.name() + " exists; remove it first or give --name");
    all.add(t);
    write(all);
    return t;
  }

  @Override
  public synchronized boolean remove(String name) throws ApiException {
    List<NotifyTarget> all = new ArrayList<>(read());
    boolean removed = all.removeIf(t -> t.name().equals(name));
    if (removed) write(all);
    return removed;
  }

  @Override
  public List<TestResult> test(String name) throws ApiException {
    List<TestResult> out = new ArrayList<>();
    for (NotifyTarget t : read()) {
      if (name != null && !t.name().equals(name)) continue;
      try {
        delivery.send(Notice.test("test notification to " + t.name()), t);
        out.add(new TestResult(t.name(), t.shown(), null));
      } catch (Delivery.Failed f) {
        out.add(new TestResult(t.name(), t.shown(), f.getMessage()));
      }
    }
    return out;
  }

  @Override
  public long behind() {
    return behind.getAsLong();
  }

  private List<NotifyTarget> read() throws ApiException {
    try {
      return file.read();
    } catch (IOException | IllegalArgumentException e) {
      throw new ApiException("cannot read the notification targets in " + file.path() + ": " + firstLine(e.getMessage())
          + "; fix or delete that file");
    }
  }

  private void write(List<NotifyTarget> all) throws ApiException {
    try {
      file.write(all);
    } catch (IOException e) {
      throw new ApiException("cannot write " + file.path() + ": " + e.getMessage());
    }
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }

  private static String freeName(List<NotifyTarget> all, String base) {
    for (int i = 1; ; i++) {
      String n = i == 1 ? base : base + "-" + i;
      if (all.stream().noneMatch(t -> t.name().equals(n))) return n;
    }
  }
}
