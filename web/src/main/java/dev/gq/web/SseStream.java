package dev.gq.web;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * One browser's server-sent event stream: {@code event:} and {@code data:} lines, each event
 * flushed as it is written, and a comment line as the heartbeat that tells a gone browser from a
 * quiet one (its write fails). A carriage return, which would end a line of the stream, never
 * reaches it. Not thread-safe: its client's own thread writes it.
 */
final class SseStream {
  private final OutputStream out;

  SseStream(HttpExchange ex) throws IOException {
    ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
    ex.getResponseHeaders().set("Cache-Control", "no-store");
    ex.sendResponseHeaders(200, 0);
    this.out = ex.getResponseBody();
    // tells the browser how long to wait before it reconnects after the daemon went away
    write("retry: 2000\n\n");
  }

  void send(String event, String data) throws IOException {
    write(frame(event, data));
  }

  /** An event as the stream carries it: each line of {@code data} its own {@code data:} line. */
  static String frame(String event, String data) {
    StringBuilder sb = new StringBuilder(data.length() + 32).append("event: ").append(event).append('\n');
    for (String line : data.replace("\r", "").split("\n", -1)) sb.append("data: ").append(line).append('\n');
    return sb.append('\n').toString();
  }

  void heartbeat() throws IOException {
    write(": ping\n\n");
  }

  private void write(String s) throws IOException {
    out.write(s.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
