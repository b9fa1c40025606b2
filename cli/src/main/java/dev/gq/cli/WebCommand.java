package dev.gq.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq web}: has the daemon serve a read-only page of the machine and of this user's jobs, live,
 * on 127.0.0.1 behind a secret token printed in its address (as Jupyter does), with the line that
 * reaches it from a laptop through ssh, and Prometheus metrics at {@code /metrics}. {@code --stop}
 * ends it; so does the daemon's stop. {@code gq daemon status} says where it serves.
 */
@Command(name = "web", description = "Serve a live, read-only page of the GPUs and your jobs, and Prometheus metrics, on 127.0.0.1 behind a secret token.")
final class WebCommand implements Callable<Integer> {
  private final Invocation inv;

  @Option(names = "--port", paramLabel = "PORT", description = "Serve on this port of 127.0.0.1 (default: a free port the system picks).")
  int port;

  @Option(names = "--metrics-open", description = "Let /metrics answer without the token, for a Prometheus on this machine; anyone on this machine can then read the figures.")
  boolean metricsOpen;

  @Option(names = "--stop", description = "Stop serving the page.")
  boolean stop;

  WebCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    WebControl web = inv.api().web();
    if (web == null) throw new RefusedException("this daemon cannot serve a web page; restart it with this gq (gq daemon stop, then gq daemon start)");
    if (stop) {
      inv.out().println(web.stop() ? "Stopped serving the web page." : "No web page was served.");
      return ExitCode.OK;
    }
    if (port < 0 || port > 65535) throw new UsageException("--port must be 0 to 65535, not " + port);
    WebControl.Serving s = web.start(new WebControl.Options(port, metricsOpen));
    print(inv.out(), s, hostName());
    return ExitCode.OK;
  }

  static void print(PrintWriter out, WebControl.Serving s, String host) {
    out.println("Serving the page at " + s.url());
    out.println("Anyone who has this address can read the page; 'gq web --stop' or the daemon's stop ends it.");
    out.println("From another computer: ssh -L " + s.port() + ":127.0.0.1:" + s.port() + " " + host + ", then open the address above.");
    out.println("Metrics for Prometheus: " + s.metricsUrl());
  }

  /** The lines of {@code gq daemon status} about the page: where it serves, or none when it does not. */
  static List<String> status(GqApi api) {
    WebControl web = api.web();
    WebControl.Serving s = web == null ? null : web.serving();
    List<String> lines = new ArrayList<>();
    if (s != null) lines.add("Web:       " + s.url() + (s.metricsOpen() ? " (metrics open to this machine)" : ""));
    return lines;
  }

  private static String hostName() {
    try {
      return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    } catch (IOException e) {
      return "HOST";
    }
  }
}
