package dev.gq.cli;

import dev.gq.api.GqApi;
import java.util.List;
import picocli.CommandLine;

/**
 * The command tree as a command sees it when it describes or runs other commands: {@code gq
 * completion} reads the whole tree's model, {@code gq mcp} runs a tool's command line in-process.
 * {@link Gq} gives it to every {@link Invocation}.
 */
interface CommandRunner {
  /** The whole command tree, as completions and manual pages describe it; nothing in it can run. */
  CommandLine model();

  /** Parses and runs one command line against {@code api}, writing to {@code io}; returns the exit code. */
  int run(List<String> argv, Io io, GqApi api);
}
