package dev.gq.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq mcp}: the Model Context Protocol server for AI assistants. The gq launcher runs it as a
 * process of its own on standard input and output (the mcp module); it is in the command tree for
 * help, manual pages and completion. Reaching it here means the command came past the launcher.
 */
@Command(name = "mcp", description = "Serve AI assistants: a Model Context Protocol server on stdin/stdout"
    + " (register the command gq with the arguments [\"mcp\"]); its write tools act only with confirm: true.")
final class McpCommand implements Callable<Integer> {
  McpCommand(Invocation inv) {}

  @Override
  public Integer call() {
    throw new RefusedException("'gq mcp' is started by the gq launcher, not by the daemon; run it as 'gq mcp'"
        + " with the gq command (bin/gq in a checkout, or the installed gq)");
  }
}
