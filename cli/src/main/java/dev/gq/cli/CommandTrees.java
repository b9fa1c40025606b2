package dev.gq.cli;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import picocli.CommandLine;

/**
 * Command trees built ahead of the request that needs them. Building a command's picocli tree
 * (reading its annotations, making its options and converters) is most of what a short command
 * like {@code gq ps} costs the daemon; so once a request for a command has run, the tree for the
 * next request naming it is built on a background thread and waits unbound for that request (a
 * watched {@code gq ps}, a loop of submits). The builder runs below the daemon's other threads
 * (its start hook lowers it), so a tree for a later request never takes a core from one being
 * served, and a request never waits for a build: one that finds its tree not yet built builds its
 * own, as {@link Gq#run} always did. Each tree serves one request only and is bound to it before
 * use ({@link Invocation#bind}): requests share nothing.
 */
public final class CommandTrees implements AutoCloseable {
  /** None kept: every request builds its own tree. */
  public static final CommandTrees NONE = new CommandTrees(null, null);

  /** A command's tree and the invocation its commands hold, not yet bound to a request. */
  record Ready(CommandLine line, Invocation inv) {}

  private final Map<String, CompletableFuture<Ready>> spares = new ConcurrentHashMap<>();
  private final Executor builder;
  private final ExecutorService owned;

  private CommandTrees(Executor builder, ExecutorService owned) {
    this.builder = builder;
    this.owned = owned;
  }

  /**
   * Trees built on one background thread of their own, stopped by {@link #close}; {@code atStart}
   * runs first on that thread (the daemon lowers its priority there).
   */
  public static CommandTrees inBackground(Runnable atStart) {
    ExecutorService one = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(() -> {
        atStart.run();
        r.run();
      }, "gq-command-trees");
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
   * The tree built ahead for command {@code name}, taken so that no other request gets it; null when
   * none is built yet (then the caller builds its own rather than wait).
   */
  Ready take(String name) {
    if (name == null || builder == null) return null;
    CompletableFuture<Ready> s = spares.get(name);
    if (s == null || !s.isDone() || !spares.remove(name, s)) return null;
    try {
      return s.getNow(null);
    } catch (RuntimeException e) {
      return null;  // the request builds its own, and reports what goes wrong there
    }
  }

  /**
   * Has a tree for command {@code name} built by {@code build} for its next request, unless one is
   * there or on its way.
   */
  void refill(String name, Function<String, Ready> build) {
    if (name == null || builder == null) return;
    CompletableFuture<Ready> s = new CompletableFuture<>();
    if (spares.putIfAbsent(name, s) != null) return;
    try {
      builder.execute(() -> {
        try {
          s.complete(build.apply(name));
        } catch (RuntimeException | LinkageError e) {
          s.completeExceptionally(e);
        }
      });
    } catch (RejectedExecutionException e) {
      spares.remove(name, s);
    }
  }

  /** How many trees are built and wait for requests (for tests). */
  int waiting() {
    return (int) spares.values().stream().filter(CompletableFuture::isDone).count();
  }

  @Override
  public void close() {
    if (owned != null) owned.shutdownNow();
    spares.clear();
  }
}
