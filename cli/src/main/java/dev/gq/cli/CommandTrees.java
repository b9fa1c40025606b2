package dev.gq.cli;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import picocli.CommandLine;

/**
 * Command trees built ahead of the request that needs them. Building a command's picocli tree
 * (reading its annotations, making its options and converters) is most of what a short command
 * like {@code gq ps} costs the daemon; so after a request for a command, one tree for that command
 * is built on a background thread and waits, unbound, for the next request naming it (a watched
 * {@code gq ps}, a loop of submits). Each tree serves one request only and is bound to it before
 * use ({@link Invocation#bind}); a request that finds none builds its own, as {@link Gq#run} always
 * did. Requests share nothing: a tree is taken by exactly one of them.
 */
public final class CommandTrees implements AutoCloseable {
  /** None kept: every request builds its own tree. */
  public static final CommandTrees NONE = new CommandTrees(null, null);

  /** A command's tree and the invocation its commands hold, not yet bound to a request. */
  record Ready(CommandLine line, Invocation inv) {}

  private final Map<String, Ready> ready = new ConcurrentHashMap<>();
  private final Set<String> building = ConcurrentHashMap.newKeySet();
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

  /** The tree built ahead for command {@code name}, taken so that no other request gets it; null when there is none. */
  Ready take(String name) {
    return name == null ? null : ready.remove(name);
  }

  /** Starts building a tree for command {@code name} when none waits or is being built (null: nothing to build). */
  void refill(String name) {
    if (builder == null || name == null || ready.containsKey(name) || !building.add(name)) return;
    try {
      builder.execute(() -> {
        try {
          ready.put(name, Gq.unbound(name));
        } catch (RuntimeException | LinkageError e) {
          // the request that needs the tree builds its own, and reports what goes wrong there
        } finally {
          building.remove(name);
        }
      });
    } catch (RejectedExecutionException e) {
      building.remove(name);
    }
  }

  /** How many trees wait for requests (for tests). */
  int waiting() {
    return ready.size();
  }

  @Override
  public void close() {
    if (owned != null) owned.shutdownNow();
    ready.clear();
  }
}
