package dev.gq.cli;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;

/**
 * Command trees built ahead of the request that needs them. Building a command's picocli tree
 * (reading its annotations, making its options and converters) is most of what a short command
 * like {@code gq ps} costs the daemon; so when a request for a command starts, the tree for the
 * next request naming it is built on a background thread, beside the request's own work, and waits
 * unbound for that request (a watched {@code gq ps}, a loop of submits). A request whose tree is
 * being built waits for it rather than build a second; one whose tree has not started building
 * builds its own, as {@link Gq#run} always did. Each tree serves one request only and is bound to
 * it before use ({@link Invocation#bind}): requests share nothing.
 */
public final class CommandTrees implements AutoCloseable {
  /** None kept: every request builds its own tree. */
  public static final CommandTrees NONE = new CommandTrees(null, null);

  /** A command's tree and the invocation its commands hold, not yet bound to a request. */
  record Ready(CommandLine line, Invocation inv) {}

  /** One tree to come: claimed by the builder when it starts, or by a request that will not wait for it. */
  private static final class Spare {
    final AtomicBoolean claimed = new AtomicBoolean();
    final CompletableFuture<Ready> tree = new CompletableFuture<>();
  }

  private final Map<String, Spare> spares = new ConcurrentHashMap<>();
  private final Executor builder;
  private final ExecutorService owned;

  private CommandTrees(Executor builder, ExecutorService owned) {
    this.builder = builder;
    this.owned = owned;
  }

  /** Trees built on one background thread of their own, stopped by {@link #close}. */
  public static CommandTrees inBackground() {
    ExecutorService one = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "gq-command-trees");
      t.setDaemon(true);
      return t;
    });
    return new CommandTrees(one, one);
  }

  /** Trees built by {@code builder} (a test's own). */
  static CommandTrees builtBy(Executor builder) {
    return new CommandTrees(builder, null);
  }

  /**
   * The tree built ahead for command {@code name}, taken so that no other request gets it (waiting
   * for it when its building has started), and the next one asked for; null when there is none.
   */
  Ready take(String name) {
    if (name == null || builder == null) return null;
    Spare s = spares.remove(name);
    refill(name);
    if (s == null) return null;
    if (s.claimed.compareAndSet(false, true)) return null;  // not started: building one here is sooner
    try {
      return s.tree.join();
    } catch (RuntimeException e) {
      return null;  // the request builds its own, and reports what goes wrong there
    }
  }

  /** Has a tree for command {@code name} built unless one is there or on its way. */
  private void refill(String name) {
    Spare s = new Spare();
    if (spares.putIfAbsent(name, s) != null) return;
    try {
      builder.execute(() -> {
        if (!s.claimed.compareAndSet(false, true)) return;
        try {
          s.tree.complete(Gq.unbound(name));
        } catch (RuntimeException | LinkageError e) {
          s.tree.completeExceptionally(e);
        }
      });
    } catch (RejectedExecutionException e) {
      spares.remove(name, s);
    }
  }

  /** How many trees are built and wait for requests (for tests). */
  int waiting() {
    return (int) spares.values().stream().filter(s -> s.tree.isDone()).count();
  }

  @Override
  public void close() {
    if (owned != null) owned.shutdownNow();
    spares.clear();
  }
}
