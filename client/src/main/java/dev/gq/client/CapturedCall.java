package dev.gq.client;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One gq command line run in this JVM exactly as the {@code gq} command runs it (the same socket,
 * frames and daemon start), with its standard output, standard error and exit code captured
 * instead of printed: for a long-lived program that calls gq many times, such as {@code gq mcp}.
 * No stream is a terminal and standard input is closed, so the daemon never prompts.
 */
public final class CapturedCall {
  private CapturedCall() {}

  /** What one command printed and its exit code. */
  public record Result(int exitCode, String stdout, String stderr) {}

  /** Runs {@code argv} (without the leading "gq") from {@code cwd} with {@code env}. */
  public static Result run(List<String> argv, Map<String, String> env, String cwd) {
    Map<String, String> e = new HashMap<>(env);
    e.put(ClientCall.TTY_IN, "0");
    e.put(ClientCall.TTY_OUT, "0");
    e.put(ClientCall.TTY_ERR, "0");
    e.put(ClientCall.STDIN_CLOSED, "1");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Main main = new Main(e, cwd, InputStream.nullInputStream(), out, err, "/dev/null");
    int code = main.run(argv.toArray(new String[0]));
    return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
