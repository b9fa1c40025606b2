package dev.gq.actors.notify;

import dev.gq.api.ApiException;
import dev.gq.api.NotifyApi;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NotifyTarget;
import dev.gq.core.notify.Routing;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The targets and their delivery: the daemon's side of {@link NotifyApi}, and {@link #deliver},
 * which the {@link Notifier} calls with each event's notices: every target that {@link Routing}
 * says wants one gets it on its own {@link Lanes lane}, in order, each notice retried with back-off
 * ({@code backoff}, doubled after each try, {@link #TRIES} tries) until delivered or given up; a
 * slow or failing target never holds back another's messages. A target whose last notice was given
 * up gets one try per notice until one gets through; one removed meanwhile gets nothing more.
 */
public final class Notifications implements NotifyApi {
  private static final Logger LOG = LoggerFactory.getLogger(Notifications.class);
  static final int TRIES = 5;
  /** A target whose oldest unsent message is older than this shows as slow in {@code gq daemon status}. */
  static final Duration SLOW = Duration.ofSeconds(5);

  private final TargetFile file;
  private final Delivery delivery;
  private final Health health = new Health();
  private final Lanes lanes;
  private final Duration backoff;
  private final Clock clock;
  private final Duration poll;
  private final Duration failFastWithin;
  private volatile LongSupplier behind = () -> 0;
  private volatile String cursorProblem;

  Notifications(Path dataDir, Map<String, String> env, int uid, Duration timeout,
      Duration backoff, Duration poll, Clock clock) {
    this(dataDir, env, uid, timeout, backoff, poll, clock, Duration.ZERO);
  }

  Notifications(Path dataDir, Map<String, String> env, int uid, Duration timeout,
      Duration backoff, Duration poll, Clock clock, Duration failFastWithin) {
    this.file = new TargetFile(dataDir);
    this.delivery = new Delivery(env, uid, timeout);
    this.backoff = backoff;
    this.poll = poll;
    this.clock = clock;
    this.lanes = new Lanes(clock);
    this.failFastWithin = failFastWithin;
  }

  /**
   * The daemon's: GQ_NOTIFY_TIMEOUT_MS (30 s) bounds one try to send (the whole exchange),
   * GQ_NOTIFY_BACKOFF_MS (1 s, doubled after each try) spaces the retries, GQ_NOTIFY_POLL_MS (2 s)
   * is how often the notifier looks for events it was not told of. {@code failFast}: the rule whose
   * hold tells a group's quick failures.
   */
  public static Notifications fromEnvironment(Path dataDir, Map<String, String> env, int uid,
      Clock clock, FailFast failFast) {
    return new Notifications(dataDir, env, uid, millis(env, "GQ_NOTIFY_TIMEOUT_MS", 30_000), millis(env, "GQ_NOTIFY_BACKOFF_MS", 1000),
        millis(env, "GQ_NOTIFY_POLL_MS", 2000), clock, failFast.off() ? Duration.ZERO : failFast.within());
  }

  private static Duration millis(Map<String, String> env, String name, long dflt) {
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

  Duration failFastWithin() {
    return failFastWithin;
  }

  void behindFrom(LongSupplier behind) {
    this.behind = behind;
  }

  /** Why the notifier's cursor cannot be stored (null: it can), for {@code gq daemon status}. */
  void cursorStored(String problem) {
    this.cursorProblem = problem;
  }

  /**
   * Hands {@code notices} (one event's) to the lane of each target that wants one; completes once
   * each target had them delivered or given up. Empty when no target wants any of them (none is
   * set, or their routing leaves these out): nothing is on its way. A file of targets that cannot be
   * read counts as none.
   */
  Optional<CompletableFuture<Void>> deliver(List<Notice> notices) {
    if (notices.isEmpty()) return Optional.empty();
    List<NotifyTarget> targets;
    try {
      targets = file.read();
    } catch (IOException | IllegalArgumentException e) {
      LOG.warn("cannot read the notification targets in {}: {}", file.path(), NoticeFailures.read(e));
      return Optional.empty();
    }
    List<CompletableFuture<Void>> sent = new ArrayList<>();
    for (NotifyTarget t : targets) {
      List<Notice> wanted = notices.stream().filter(n -> Routing.wants(n, t.on(), t.minRuntime())).toList();
      if (!wanted.isEmpty()) sent.add(lanes.submit(t.name(), () -> { for (Notice n : wanted) deliver(n, t); }));
    }
    if (sent.isEmpty()) return Optional.empty();
    return Optional.of(CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)));
  }

  /** Sends {@code n} to {@code t}, retried with back-off, unless {@code t} was removed or changed meanwhile. */
  private void deliver(Notice n, NotifyTarget t) throws InterruptedException {
    boolean wasDown = health.down(t.name());
    long wait = backoff.toMillis();
    for (int attempt = 1; stillThere(t); attempt++) {
      try {
        delivery.send(n, t);
        health.delivered(t.name());
        return;
      } catch (Delivery.Failed f) {
        // a target that is down (its last notice was given up) gets one try, so that a dead
        // webhook does not hold its own later notices for a whole back-off each
        if (attempt >= TRIES || wasDown) {
          giveUp(n, t, f.getMessage());
          return;
        }
      }
      Thread.sleep(wait); // back-off between tries; this lane only delivers this target's notices
      wait *= 2;
    }
  }

  private boolean stillThere(NotifyTarget t) {
    try {
      return file.read().contains(t);
    } catch (IOException | IllegalArgumentException e) {
      return true; // the file is being fixed: keep to what was read when the notice was decided
    }
  }

  /** Ends the lanes; what they had not sent is sent after the notifier starts again. */
  void stop() {
    lanes.stop();
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
      Lanes.Lag lag = lanes.lag(t.name());
      boolean slow = lag.oldest().compareTo(SLOW) >= 0;
      out.add(new TargetView(t, h.delivered(), h.failed(), h.lastError(), h.lastErrorAt(), slow ? lag.unsent() : 0,
          slow ? lag.oldest() : null));
    }
    return out;
  }

  @Override
  public String cursorProblem() {
    return cursorProblem;
  }

  @Override
  public String unsendable(NotifyTarget target) {
    return delivery.missing(target);
  }

  @Override
  public synchronized NotifyTarget add(NotifyTarget target) throws ApiException {
    List<NotifyTarget> all = new ArrayList<>(read());
    NotifyTarget t = target.name() != null ? target
        : new NotifyTarget(TargetFile.freeName(all, target.kind().word()), target.kind(), target.address(), target.argv(), target.on(),
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

  /** Each target's test is sent at once and beside the others, so the answer comes within one time limit. */
  @Override
  public List<TestResult> test(String name) throws ApiException {
    List<NotifyTarget> chosen = read().stream().filter(t -> name == null || t.name().equals(name)).toList();
    List<CompletableFuture<TestResult>> tries = new ArrayList<>();
    try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
      for (NotifyTarget t : chosen) tries.add(CompletableFuture.supplyAsync(() -> test(t), threads));
    }
    return tries.stream().map(CompletableFuture::join).toList();
  }

  private TestResult test(NotifyTarget t) {
    try {
      delivery.send(Notice.test("test notification to " + t.name()), t);
      return new TestResult(t.name(), t.shown(), null);
    } catch (Delivery.Failed f) {
      return new TestResult(t.name(), t.shown(), f.getMessage());
    }
  }

  @Override
  public long behind() {
    return behind.getAsLong();
  }

  private List<NotifyTarget> read() throws ApiException {
    try {
      return file.read();
    } catch (IOException | IllegalArgumentException e) {
      throw new ApiException("cannot read the notification targets in " + file.path() + ": " + NoticeFailures.read(e)
          + "; fix or delete that file");
    }
  }

  private void write(List<NotifyTarget> all) throws ApiException {
    try {
      file.write(all);
    } catch (IOException e) {
      throw new ApiException("cannot write " + file.path() + ": " + NoticeFailures.write(e));
    }
  }
}
