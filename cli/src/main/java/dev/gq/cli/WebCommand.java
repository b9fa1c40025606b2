package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.api.WebControl;
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
 * reaches it from a laptop through ssh, and Prometheus metrics at {@code /metrics}; or, with
 * {@code --lab}, the lab's page of the whole machine (only what every user may see) on the address
 * {@code --listen} names. {@code --stop} ends it; so does the daemon's stop. {@code gq daemon status}
 * says where it serves.
 */
@Command(name = "web", description = "Serve a live, read-only page of the GPUs and your jobs, and Prometheus metrics, on 127.0.0.1 behind a secret token; or, with --lab, the lab's page of the whole machine.")
final class WebCommand implements Callable<Integer> {
  private final Invocation inv;

  @Option(names = "--port", paramLabel = "PORT", description = "Serve on this port of 127.0.0.1 (default: a free port the system picks).")
  int port;

  @Option(names = "--metrics-open", description = "Let /metrics answer without the token, for a Prometheus on this machine; anyone on this machine can then read the figures.")
  boolean metricsOpen;

  @Option(names = "--lab", description = "Serve the lab's page instead: only what every user of this machine may see (the GPUs and their holders, everyone's line of gq who, the bookings, the policy); no token unless --token.")
  boolean lab;

  @Option(names = "--listen", paramLabel = "ADDRESS[:PORT]", description = "With --lab: serve on this address (default 127.0.0.1), e.g. 0.0.0.0:8080 behind a reverse proxy.")
  String listen;

  @Option(names = "--token", description = "With --lab: require a secret token in the address, as your own page does.")
  boolean token;

  @Option(names = "--job-mapping-dir", paramLabel = "DIR", description = "While the page is served, keep dcgm-exporter's job mapping in DIR (its --hpc-job-mapping-dir): a file per GPU index listing the jobs on it.")
  Path jobMappingDir;

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
    WebControl.Serving s = web.start(options());
    if (s.lab()) printLab(inv.out(), s);
    else print(inv.out(), s, hostName());
    return ExitCode.OK;
  }

  private WebControl.Options options() {
    if (!lab && listen != null) throw new UsageException("--listen is for the lab's page (--lab); your own page is served on 127.0.0.1 only");
    if (!lab && token) throw new UsageException("--token is for the lab's page (--lab); your own page always needs its token");
    String mapping = jobMappingDir == null ? null : inv.io().cwd().resolve(jobMappingDir).normalize().toString();
    if (!lab) return WebControl.Options.own(port, metricsOpen, mapping);
    WebControl.Options at = listen == null ? new WebControl.Options(true, "127.0.0.1", port, token, metricsOpen, mapping) : listening(listen);
    if (listen != null && port != 0 && at.port() != 0) throw new UsageException("give the port once, in --listen or with --port");
    return new WebControl.Options(true, at.host(), at.port() == 0 ? port : at.port(), token, metricsOpen, mapping);
  }

  /** {@code --listen}'s ADDRESS[:PORT]: 0.0.0.0:8080, 127.0.0.1, [::]:8080 or an IPv6 address without a port. */
  static WebControl.Options listening(String s) {
    String host = s, portText = null;
    if (s.startsWith("[") && s.indexOf(']') > 0) {
      host = s.substring(1, s.indexOf(']'));
      String rest = s.substring(s.indexOf(']') + 1);
      if (!rest.isEmpty()) portText = rest.startsWith(":") ? rest.substring(1) : "";
    } else if (s.indexOf(':') >= 0 && s.indexOf(':') == s.lastIndexOf(':')) {
      host = s.substring(0, s.indexOf(':'));
      portText = s.substring(s.indexOf(':') + 1);
    }
    if (host.isBlank() || (portText != null && !portText.matches("[0-9]{1,5}")) || (portText != null && Integer.parseInt(portText) > 65535))
      throw new UsageException("--listen takes ADDRESS[:PORT] (0.0.0.0:8080, 127.0.0.1, [::]:8080), not '" + s + "'");
    return new WebControl.Options(true, host, portText == null ? 0 : Integer.parseInt(portText), false, false, null);
  }

  static void print(PrintWriter out, WebControl.Serving s, String host) {
    out.println("Serving the page at " + s.url());
    out.println("Anyone who has this address can read the page; 'gq web --stop' or the daemon's stop ends it.");
    out.println("From another computer: ssh -L " + s.port() + ":127.0.0.1:" + s.port() + " " + host + ", then open the address above.");
    out.println("Metrics for Prometheus: " + s.metricsUrl());
    mapping(out, s);
  }

  static void printLab(PrintWriter out, WebControl.Serving s) {
    out.println("Serving the lab's page at " + s.url());
    out.println("It shows only what every user of this machine may see: the GPUs and their holders, everyone's line of gq who, the bookings and the policy.");
    out.println((s.token() == null ? "Anyone who can reach this address" : "Anyone who has this address")
        + " can read the page; 'gq web --stop' or the daemon's stop ends it.");
    out.println("Metrics for Prometheus: " + s.metricsUrl());
    mapping(out, s);
  }

  private static void mapping(PrintWriter out, WebControl.Serving s) {
    if (s.jobMappingDir() != null) out.println("Job mapping for dcgm-exporter: " + s.jobMappingDir() + " (--hpc-job-mapping-dir)");
  }

  /** The lines of {@code gq daemon status} about the page: where it serves, or none when it does not. */
  static List<String> status(GqApi api) {
    WebControl web = api.web();
    WebControl.Serving s = web == null ? null : web.serving();
    List<String> lines = new ArrayList<>();
    if (s != null && s.lab()) lines.add("Web:       " + s.url() + " (the lab's page)");
    else if (s != null) lines.add("Web:       " + s.url() + (s.metricsOpen() ? " (metrics open to this machine)" : ""));
    if (s != null && s.jobMappingDir() != null) lines.add("Mapping:   " + s.jobMappingDir() + " (dcgm-exporter's job mapping)");
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
