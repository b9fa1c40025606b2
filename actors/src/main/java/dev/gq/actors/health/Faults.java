package dev.gq.actors.health;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Failures injected into the daemon's parts, for tests only: with {@code GQ_TEST_FAULT_DIR} set, a
 * part that finds a file named after its actor ({@code gpu-watcher}, {@code projector},
 * {@code reconciler}, {@code notifier}, {@code cluster-bridge}, {@code gpu-timeline}, {@code scheduler}; {@code job-runner}
 * for any job's runner) in that directory when it receives a message throws {@link Injected}
 * instead of handling it, and removes the file, unless the file says {@code always}. Unset (as it is outside tests), nothing is ever looked at.
 */
public final class Faults {
  public static final String VARIABLE = "GQ_TEST_FAULT_DIR";
  /** No faults. */
  public static final Faults NONE = new Faults(null);

  private final Path dir;

  private Faults(Path dir) {
    this.dir = dir;
  }

  public static Faults fromEnvironment(Map<String, String> env) {
    String d = env.get(VARIABLE);
    return d == null || d.isBlank() ? NONE : new Faults(Path.of(d));
  }

  /** Faults read from files in {@code dir}. */
  public static Faults in(Path dir) {
    return new Faults(dir);
  }

  /** Throws when a failure of {@code part} is asked for. */
  void check(Part part) {
    check(part.actorName(), part.text());
  }

  /** Throws when a failure of a job's runner is asked for. */
  public void checkRunner() {
    check("job-runner", "job runner");
  }

  private void check(String name, String what) {
    if (dir == null) return;
    Path f = dir.resolve(name);
    if (!Files.exists(f)) return;
    String text;
    try {
      text = Files.readString(f).strip();
      if (!text.startsWith("always")) Files.deleteIfExists(f);
    } catch (IOException e) {
      text = "";
    }
    throw new Injected(what + ": failure injected for a test" + (text.isEmpty() ? "" : " (" + text + ")"));
  }

  /** The failure a test asked for. */
  public static final class Injected extends RuntimeException {
    Injected(String message) {
      super(message);
    }
  }
}
