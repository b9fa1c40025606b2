package dev.gq.mcp;

import java.util.List;

/**
 * Runs one gq command line (without the leading "gq") and returns what it printed: the port
 * between the tools and the daemon. The real one runs the gq command itself, the native client
 * ({@code NativeRuns}), so that one program speaks to the daemon; tests script a fake.
 */
public interface GqRunner {

  /** What one command printed and its exit code. */
  record Outcome(int exitCode, String stdout, String stderr) {}

  /** Runs {@code argv} from {@code cwd}. */
  Outcome run(List<String> argv, String cwd);
}
