package dev.gq.cli;

import java.nio.file.Path;
import java.util.Map;

/** What a batch line does not say: the command line's options, the caller's directory and environment. */
record BatchDefaults(int gpus, String name, String group, String cwd, Path callerDir, Map<String, String> env,
    Scheduling scheduling) {
  BatchDefaults {
    env = Map.copyOf(env);
  }
}
