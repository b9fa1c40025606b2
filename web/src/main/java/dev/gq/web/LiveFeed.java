package dev.gq.web;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The machine page's live updates: one look at the daemon a tick (only while a browser follows),
 * shared by every browser, rendered into the page's sections; a section goes out only when its
 * HTML changed since the last look, so a page left open costs a heartbeat, not a page a second. A
 * browser that joins gets every section at once; one that falls {@link #BACKLOG} updates behind is
 * let go (it reconnects and starts afresh). Each browser is served on its own thread.
 */
final class LiveFeed implements AutoCloseable {
  static final int BACKLOG = 64;

  private record Update(String section, String html) {}

  private final Supplier<Map<String, String>> look;
  private final Duration heartbeat;
  private final Set<BlockingQueue<Update>> clients = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "gq-web-feed");
    t.setDaemon(true);
    return t;
  });
  private volatile Map<String, String> last;

  LiveFeed(Supplier<Map<String, String>> look, Duration tick, Duration heartbeat) {
    this.look = look;
    this.heartbeat = heartbeat;
    ticks.scheduleWithFixedDelay(this::tick, tick.toMillis(), tick.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Follows for one browser until it goes; every section first. */
  void serve(SseStream out) throws IOException, InterruptedException {
    BlockingQueue<Update> q = new ArrayBlockingQueue<>(BACKLOG);
    clients.add(q);
    try {
      Map<String, String> now = last;
      if (now == null) last = now = look.get();
      for (Map.Entry<String, String> e : now.entrySet()) out.send("section", e.getKey() + "\n" + e.getValue());
      while (clients.contains(q)) {
        Update u = q.poll(heartbeat.toMillis(), TimeUnit.MILLISECONDS);
        if (u == null) out.heartbeat();
        else out.send("section", u.section() + "\n" + u.html());
      }
    } finally {
      clients.remove(q);
    }
  }

  int following() {
    return clients.size();
  }

  private void tick() {
    if (clients.isEmpty()) {
      last = null;
      return;
    }
    Map<String, String> now;
    try {
      now = look.get();
    } catch (RuntimeException e) {
      return; // the next tick tries again; the page keeps what it shows
    }
    Map<String, String> before = last;
    last = now;
    if (before == null) return;
    for (Map.Entry<String, String> e : now.entrySet()) {
      if (Objects.equals(before.get(e.getKey()), e.getValue())) continue;
      Update u = new Update(e.getKey(), e.getValue());
      for (BlockingQueue<Update> q : clients) if (!q.offer(u)) clients.remove(q);
    }
  }

  @Override
  public void close() {
    ticks.shutdownNow();
    clients.clear();
  }
}
