package dev.gq.mcp;

import java.util.List;
import java.util.Map;

/**
 * Runs one gq command line (without the leading "gq") and returns what it printed: the port
 * between the tools and the daemon. The real one runs the gq command itself, the native client
 * ({@link NativeRuns}), so that one program speaks to the daemon; tests script a fake.
 */
public interface GqRunner {

  /** What one command printed and its exit code. */
  record Outcome(int exitCode, String stdout, String stderr) {}

  /** Runs {@code argv} from {@code cwd}. */
  Outcome run(List<String> argv, String cwd);

  /**
   * The real runner: the native client {@value NativeRuns#CLIENT_VARIABLE} names (the launcher
   * script sets it), with this process's environment {@code env}.
   */
  static GqRunner client(Map<String, String> env) {
    return new NativeRuns(env);
  }
}
