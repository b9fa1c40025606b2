package dev.gq.mcp;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code gq mcp} in a JVM of its own: a Model Context Protocol server on standard input and output,
 * JSON-RPC 2.0 one message a line ({@link McpServer}). Each tool call runs one gq command: the
 * native client, as a process ({@link NativeRuns}). The gq command serves the same
 * session inside the daemon instead and starts this only where it cannot (docs/reference.md). The server ends at the end of its
 * input, once the calls read before have their answers or {@link McpServer#GRACE} has passed. Standard
 * output carries only the protocol; standard error at most one line of the server's own.
 */
public final class McpMain {
  static final String USAGE = "usage: gq mcp   (a Model Context Protocol server on stdin/stdout for an AI assistant;"
      + " register it with the command gq and the arguments [\"mcp\"]; see 'man gq-mcp')";

  private McpMain() {}

  public static void main(String[] args) throws InterruptedException {
    if (args.length > 0) {
      boolean help = args[0].equals("-h") || args[0].equals("--help");
      (help ? System.out : System.err).println(help ? USAGE : "gq: 'gq mcp' takes no arguments; " + USAGE);
      System.exit(help ? 0 : 2);
    }
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
      System.err.println("gq mcp: internal error in " + t.getName() + " (" + e.getClass().getSimpleName() + "); stopping");
      Runtime.getRuntime().halt(1);
    });
    OutputStream stdout = new FileOutputStream(FileDescriptor.out);
    int code = McpServer.serve(new FileInputStream(FileDescriptor.in), line -> write(stdout, line), System.err,
        new NativeRuns(System.getenv()), System.getProperty("user.dir"));
    System.exit(code);
  }

  /** One message a line; once the assistant has closed the output no one is left to answer, so the server stops. */
  private static synchronized void write(OutputStream out, String line) {
    try {
      out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      out.flush();
    } catch (IOException e) {
      System.err.println("gq mcp: standard output is closed; stopping");
      System.exit(0);
    }
  }
}
