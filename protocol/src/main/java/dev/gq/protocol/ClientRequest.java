package dev.gq.protocol;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The first line a client sends on a connection: a {@link Run} of one {@code gq} command line, or
 * a {@link Ping}. {@link #decode} checks the protocol version and every member's type and says in
 * one line what is wrong; {@link #toJson()} encodes. A request is answered by frames and is never
 * sent twice (a submit might already have been applied).
 */
public sealed interface ClientRequest {

  /** The request as one line of compact JSON, without the trailing newline. */
  String toJson();

  /**
   * One invocation of {@code gq}: its arguments (without the program name), working directory,
   * whole environment, which of stdin/stdout/stderr are terminals, the terminal width, and the
   * terminal's height in lines when stdout is one (0: not known, or not a terminal; an older client
   * leaves it out), and whether the client can show a full screen ({@code screen}: the native client
   * in a terminal; {@code gq top} needs it, see {@link Frame.Screen}), and whether it can send its
   * standard input as it comes ({@code stdin_stream}: the native client for {@code gq mcp}, see
   * {@link Frame.StdinStream}).
   */
  record Run(String requestId, List<String> argv, String cwd, Map<String, String> env,
      boolean stdinTty, boolean stdoutTty, boolean stderrTty, int width, int height, boolean screen,
      boolean stdinStream) implements ClientRequest {
    public Run(String requestId, List<String> argv, String cwd, Map<String, String> env,
        boolean stdinTty, boolean stdoutTty, boolean stderrTty, int width, int height, boolean screen) {
      this(requestId, argv, cwd, env, stdinTty, stdoutTty, stderrTty, width, height, screen, false);
    }

    public Run(String requestId, List<String> argv, String cwd, Map<String, String> env,
        boolean stdinTty, boolean stdoutTty, boolean stderrTty, int width, int height) {
      this(requestId, argv, cwd, env, stdinTty, stdoutTty, stderrTty, width, height, false);
    }

    public Run(String requestId, List<String> argv, String cwd, Map<String, String> env,
        boolean stdinTty, boolean stdoutTty, boolean stderrTty, int width) {
      this(requestId, argv, cwd, env, stdinTty, stdoutTty, stderrTty, width, 0);
    }

    public Run {
      Objects.requireNonNull(requestId, "requestId");
      argv = List.copyOf(argv);
      Objects.requireNonNull(cwd, "cwd");
      env = Map.copyOf(env);
    }

    @Override public String toJson() {
      StringBuilder sb = new StringBuilder(4096);
      sb.append("{\"protocol\":").append(Protocol.VERSION).append(",\"type\":\"run\",\"request_id\":");
      Json.quote(sb, requestId);
      sb.append(",\"argv\":");
      Json.write(sb, argv);
      sb.append(",\"cwd\":");
      Json.quote(sb, cwd);
      sb.append(",\"env\":");
      Json.write(sb, env);
      sb.append(",\"stdin_tty\":").append(stdinTty).append(",\"stdout_tty\":").append(stdoutTty);
      sb.append(",\"stderr_tty\":").append(stderrTty).append(",\"width\":").append(width);
      if (height > 0) sb.append(",\"height\":").append(height);
      if (screen) sb.append(",\"screen\":true");
      if (stdinStream) sb.append(",\"stdin_stream\":true");
      return sb.append('}').toString();
    }
  }

  /** Asks whether a daemon answers; it replies with one {@link Frame.Pong}. */
  record Ping() implements ClientRequest {
    @Override public String toJson() {
      return "{\"protocol\":" + Protocol.VERSION + ",\"type\":\"ping\"}";
    }
  }

  /** Decodes and validates a request line. */
  static ClientRequest decode(String line) throws ProtocolException {
    Fields f = Fields.parse("request", line);
    long version = f.integer("protocol");
    if (version != Protocol.VERSION) {
      throw new ProtocolException("the client speaks protocol " + version + " and this daemon "
          + Protocol.VERSION + "; restart the daemon so both run the same gq version");
    }
    String type = f.string("type");
    switch (type) {
      case "ping": return new Ping();
      case "run": return run(f);
      default: throw new ProtocolException("invalid request: unknown type '" + type + "'");
    }
  }

  private static Run run(Fields f) throws ProtocolException {
    String requestId = f.string("request_id");
    List<String> argv = f.stringList("argv");
    String cwd = f.string("cwd");
    if (!cwd.startsWith("/")) {
      throw new ProtocolException("invalid request: 'cwd' must be an absolute path");
    }
    Map<String, String> env = f.stringMap("env");
    int width = f.has("width") ? ScreenBounds.width(f.integer("width", 1, 100_000)) : 80;
    int height = f.has("height") ? ScreenBounds.height(f.integer("height", 0, 100_000)) : 0;
    return new Run(requestId, argv, cwd, env, f.bool("stdin_tty", false),
        f.bool("stdout_tty", false), f.bool("stderr_tty", false), width, height, f.bool("screen", false),
        f.bool("stdin_stream", false));
  }
}
