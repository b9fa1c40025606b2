package dev.gq.client;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** Runs {@link Main#run} on temp directories with captured streams. */
final class Harness {
  final Map<String, String> env = new HashMap<>();
  final Path data;
  final Path runtime;
  String stdin = "";
  /** When set, used as standard input instead of {@link #stdin}. */
  java.io.InputStream stdinStream;
  String ttyPath = "/nonexistent/tty";
  long startTimeoutMillis = 15_000;
  long exitTimeoutMillis = DaemonExit.EXIT_TIMEOUT_MILLIS;
  long reconnectMillis = Main.RECONNECT_MILLIS;
  String out;
  /** Standard output exactly as written. */
  byte[] outBytes;
  String err;

  Harness(Path dir) {
    data = dir.resolve("data");
    runtime = dir.resolve("run");
    env.put("HOME", dir.toString());
    env.put("GQ_DATA_DIR", data.toString());
    env.put("GQ_RUNTIME_DIR", runtime.toString());
    env.put("GQ_CLIENT_TTY_IN", "0");
    env.put("GQ_CLIENT_TTY_OUT", "0");
    env.put("GQ_CLIENT_TTY_ERR", "0");
    env.put("GQ_CLIENT_COLUMNS", "");
  }

  Path socket() {
    return runtime.resolve("gq.sock");
  }

  Path log() {
    return data.resolve("gq-daemon.log");
  }

  int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    java.io.InputStream in = stdinStream != null ? stdinStream : new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
    Main main = new Main(env, "/work/dir", in, o, e, ttyPath);
    main.startTimeoutMillis = startTimeoutMillis;
    main.exitTimeoutMillis = exitTimeoutMillis;
    main.reconnectMillis = reconnectMillis;
    int code = main.run(args);
    out = o.toString(StandardCharsets.UTF_8);
    outBytes = o.toByteArray();
    err = e.toString(StandardCharsets.UTF_8);
    return code;
  }
}
