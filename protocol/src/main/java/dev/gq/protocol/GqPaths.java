package dev.gq.protocol;

import java.nio.file.Path;
import java.util.Map;

/**
 * Where gq keeps its files, from the environment: the data directory (database, logs, exit files,
 * daemon log, the data lock) and the runtime directory (socket, pid and lock files). Shared by the daemon and the
 * client so both always agree.
 */
public record GqPaths(Path dataDir, Path runtimeDir) {

  public static GqPaths fromEnvironment(Map<String, String> env) {
    Path data = dir(env, "GQ_DATA_DIR", "XDG_DATA_HOME", ".local/share");
    String runtime = nonEmpty(env.get("GQ_RUNTIME_DIR"));
    Path run;
    if (runtime != null) run = Path.of(runtime);
    else if (nonEmpty(env.get("XDG_RUNTIME_DIR")) != null) run = Path.of(env.get("XDG_RUNTIME_DIR"), "gq");
    else run = data.resolve("runtime");
    return new GqPaths(data.toAbsolutePath(), run.toAbsolutePath());
  }

  private static Path dir(Map<String, String> env, String own, String xdg, String homeRel) {
    String v = nonEmpty(env.get(own));
    if (v != null) return Path.of(v);
    String x = nonEmpty(env.get(xdg));
    if (x != null) return Path.of(x, "gq");
    String home = nonEmpty(env.get("HOME"));
    return Path.of(home != null ? home : System.getProperty("user.home"), homeRel, "gq");
  }

  private static String nonEmpty(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  public Path socket() { return runtimeDir.resolve("gq.sock"); }
  public Path pidFile() { return runtimeDir.resolve("gq.pid"); }
  public Path lockFile() { return runtimeDir.resolve("gq.lock"); }
  /** Held (flock) by the daemon that uses this data directory, whatever its runtime directory. */
  public Path dataLockFile() { return dataDir.resolve("gq.lock"); }
  public Path database() { return dataDir.resolve("gq.db"); }
  public Path logDir() { return dataDir.resolve("logs"); }
  public Path exitDir() { return dataDir.resolve("run"); }
  public Path daemonLog() { return dataDir.resolve("gq-daemon.log"); }
  public Path jobLog(long id) { return logDir().resolve(id + ".log"); }
  public Path exitFile(long id) { return exitDir().resolve(id + ".exit"); }
  /** Where job {@code id} may write {@code current total} ({@code $GQ_PROGRESS_FILE}). */
  public Path progressFile(long id) { return exitDir().resolve(id + ".progress"); }
}
