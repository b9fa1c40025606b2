package dev.gq.mcp;

import dev.gq.client.CapturedCall;
import java.util.List;
import java.util.Map;

/**
 * Runs one gq command line (without the leading "gq") and returns what it printed: the port
 * between the tools and the daemon. The real one runs it through the client library in this JVM;
 * tests script a fake.
 */
public interface GqRunner {

  /** What one command printed and its exit code. */
  record Outcome(int exitCode, String stdout, String stderr) {}

  /** Runs {@code argv} from {@code cwd}. */
  Outcome run(List<String> argv, String cwd);

  /** The real runner: the gq client in this JVM, with this process's environment. */
  static GqRunner client(Map<String, String> env) {
    return (argv, cwd) -> {
      CapturedCall.Result r = CapturedCall.run(argv, env, cwd);
      return new Outcome(r.exitCode(), r.stdout(), r.stderr());
    };
  }
}
