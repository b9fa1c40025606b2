import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * RawRequests SOCKET COUNT TIMES_FILE CWD GQ_ARG...: COUNT requests, each time in ms to TIMES_FILE,
 * in the daemon's protocol version (GQ_BENCH_PROTOCOL, from `gq daemon status`).
 */
public class RawRequests {
  public static void main(String[] args) throws Exception {
    UnixDomainSocketAddress socket = UnixDomainSocketAddress.of(args[0]);
    int count = Integer.parseInt(args[1]);
    Path timesFile = Path.of(args[2]);
    int protocol = Integer.parseInt(System.getenv().getOrDefault("GQ_BENCH_PROTOCOL", "2"));
    StringBuilder fixed = new StringBuilder("\",\"argv\":[");
    for (int i = 4; i < args.length; i++) {
      if (i > 4) fixed.append(',');
      quote(fixed, args[i]);
    }
    fixed.append("],\"cwd\":");
    quote(fixed, args[3]);
    fixed.append(",\"env\":{");
    boolean first = true;
    for (Map.Entry<String, String> e : new TreeMap<>(System.getenv()).entrySet()) {
      if (!first) fixed.append(',');
      first = false;
      quote(fixed, e.getKey());
      fixed.append(':');
      quote(fixed, e.getValue());
    }
    fixed.append("},\"stdin_tty\":false,\"stdout_tty\":false,\"stderr_tty\":false,\"width\":80}\n");
    int failed = 0;
    long begin = System.nanoTime();
    try (PrintWriter times = new PrintWriter(Files.newBufferedWriter(timesFile))) {
      for (int i = 0; i < count; i++) {
        long t0 = System.nanoTime();
        String request = "{\"protocol\":" + protocol + ",\"type\":\"run\",\"request_id\":\"" + UUID.randomUUID() + fixed;
        String last;
        try (SocketChannel ch = SocketChannel.open(socket)) {
          ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8));
          while (out.hasRemaining()) ch.write(out);
          // buffered: a byte at a time from the channel is a system call a byte, which a long output makes the figure
          last = untilExit(new BufferedInputStream(Channels.newInputStream(ch)));
        }
        times.printf("%.3f%n", (System.nanoTime() - t0) / 1e6);
        if (!last.contains("\"t\":\"exit\"") || !last.contains("\"code\":0")) {
          failed++;
          if (failed <= 3) System.err.println("request " + i + " ended with: " + last);
        }
      }
    }
    System.out.printf("%d %d %d%n", count, failed, (System.nanoTime() - begin) / 1_000_000);
    System.exit(failed == 0 ? 0 : 1);
  }

  /** Reads frames until the exit frame; returns it, or the last frame when the connection ends first. */
  private static String untilExit(InputStream in) throws Exception {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    String last = "(no frame)";
    int b;
    while ((b = in.read()) >= 0) {
      if (b != '\n') {
        line.write(b);
        continue;
      }
      last = line.toString(StandardCharsets.UTF_8);
      line.reset();
      if (last.contains("\"t\":\"exit\"")) return last;
    }
    return last;
  }

  private static void quote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') sb.append('\\').append(c);
      else if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
      else sb.append(c);
    }
    sb.append('"');
  }
}
