package dev.gq.actors.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.actors.e2e.ChaosWorkload.Plan;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Submits the planned jobs over time, with random gaps, while the daemon is being killed and
 * restarted under it. A submit whose connect fails is simply sent again once the daemon answers;
 * one whose reply was lost (the daemon died while answering) may or may not have been stored, so
 * the job is first looked up by its key after the restart and submitted again only if absent.
 * Anything the daemon refuses is recorded as a finding, never retried silently.
 */
final class ChaosSubmitter implements Runnable {
  private static final Duration DAEMON_BACK = Duration.ofMinutes(3);

  private final Gqd g;
  private final Path ledger;
  private final Random random;
  private final int maxGapMillis;
  private final Queue<Plan> pending = new ConcurrentLinkedQueue<>();
  final List<Plan> plans = new java.util.concurrent.CopyOnWriteArrayList<>();
  final Map<Integer, Long> ids = new ConcurrentHashMap<>();
  final Queue<String> findings = new ConcurrentLinkedQueue<>();
  private final java.util.concurrent.atomic.AtomicInteger outstanding = new java.util.concurrent.atomic.AtomicInteger();
  final java.util.concurrent.atomic.AtomicInteger lostReplies = new java.util.concurrent.atomic.AtomicInteger();
  volatile Throwable failure;

  ChaosSubmitter(Gqd g, Path ledger, List<Plan> plans, Random random, int maxGapMillis) {
    this.g = g;
    this.ledger = ledger;
    this.random = random;
    this.maxGapMillis = maxGapMillis;
    plans.forEach(this::add);
  }

  /** Queues one more job (an extra probe the fault driver asks for); submitted after the rest. */
  void add(Plan p) {
    outstanding.incrementAndGet();
    plans.add(p);
    pending.add(p);
  }

  /** Submits one job at once from the calling thread (a job the fault driver needs now). */
  long submitNow(Plan p) throws InterruptedException {
    plans.add(p);
    long id = submit(p);
    ids.put(p.n(), id);
    return id;
  }

  /** True when every job handed to it so far has been submitted (and has an id). */
  boolean idle() {
    return outstanding.get() == 0;
  }

  @Override
  public void run() {
    try {
      while (true) {
        Plan p = pending.poll();
        if (p == null) {
          Thread.sleep(50);
          continue;
        }
        Thread.sleep(random.nextInt(maxGapMillis + 1));
        ids.put(p.n(), submit(p));
        outstanding.decrementAndGet();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable t) {
      failure = t;
    }
  }

  private long submit(Plan p) throws InterruptedException {
    String[] argv = ChaosWorkload.argv(p, ledger).toArray(String[]::new);
    long deadline = System.nanoTime() + DAEMON_BACK.toNanos();
    boolean refused = false;
    while (true) {
      if (System.nanoTime() > deadline) throw new AssertionError("could not submit " + p + " for " + DAEMON_BACK);
      ChaosClient.Attempt a = ChaosClient.send(g, argv);
      if (!a.sent()) {
        Thread.sleep(100);
        continue;
      }
      if (a.result() == null) {
        lostReplies.incrementAndGet();
        Long found = lookUp(p);
        if (found != null) return found;
        continue;
      }
      if (a.result().code() != 0) {
        if (!refused) findings.add("the daemon refused submit of " + p + ": exit " + a.result().code() + ", " + a.result().err().strip());
        refused = true;
        Thread.sleep(200);
        continue;
      }
      JsonNode reply = a.result().json();
      if (reply.get("skipped").asBoolean())
        findings.add("submit of " + p + " was skipped as a duplicate of job " + reply.get("id") + " it never made");
      return reply.get("id").asLong();
    }
  }

  /** After a lost reply: waits for the daemon, then finds the job by its key (null: never stored). */
  private Long lookUp(Plan p) throws InterruptedException {
    while (true) {
      ChaosClient.Attempt a = ChaosClient.send(g, "ps", "--all", "--json");
      if (a.result() != null && a.result().code() == 0) {
        Long found = null;
        for (JsonNode j : a.result().json()) {
          if (!p.key().equals(j.path("key").asText(null))) continue;
          if (found != null) findings.add("key " + p.key() + " has two jobs: " + found + " and " + j.get("id"));
          found = j.get("id").asLong();
        }
        return found;
      }
      Thread.sleep(100);
    }
  }
}
