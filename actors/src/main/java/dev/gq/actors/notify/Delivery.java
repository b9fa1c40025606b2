package dev.gq.actors.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.core.job.Durations;
import dev.gq.core.notify.Notice;
import dev.gq.core.notify.NoticeKind;
import dev.gq.core.notify.NotifyTarget;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends one notice to one target and returns, or throws {@link Failed} with a one-line reason in
 * words (never a Java exception's text, never a webhook's URL). Every send has a time limit that
 * bounds the whole exchange (a webhook's connection, answer and body; a program's run): a target
 * that is still at it then is stopped, and that counts as a failure. A program is run from its
 * argv, never through a shell. The desktop notification
 * reaches the user's session bus from a detached daemon through {@code /run/user/UID/bus} when
 * {@code DBUS_SESSION_BUS_ADDRESS} is unset. Blocks: called on the notifier's own thread only.
 */
final class Delivery {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A send that did not succeed, with a reason safe to show and log. */
  static final class Failed extends Exception {
    Failed(String why) {
      super(why, null, false, false);
    }
  }

  private final Map<String, String> env;
  private final int uid;
  private final Duration timeout;
  private final HttpClient http;
  private final Path userRuntime;

  Delivery(Map<String, String> env, int uid, Duration timeout) {
    this(env, uid, timeout, Path.of("/run/user"));
  }

  /** {@code userRuntime}: where the users' runtime directories are ({@code /run/user}; a test's folder). */
  Delivery(Map<String, String> env, int uid, Duration timeout, Path userRuntime) {
    this.userRuntime = userRuntime;
    this.env = Map.copyOf(env);
    this.uid = uid;
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /**
   * Why {@code t} cannot work on this machine as things stand (its program is not installed), with
   * the package to install; null when nothing is known to be missing.
   */
  String missing(NotifyTarget t) {
    return switch (t.kind()) {
      case DESKTOP -> onPath("notify-send") ? null : "notify-send is not installed here, so desktop messages will fail;"
          + " install it (Debian/Ubuntu: sudo apt install libnotify-bin) or use another target";
      case MAIL -> {
        try {
          sendmail();
          yield null;
        } catch (Failed f) {
          yield f.getMessage();
        }
      }
      case COMMAND, WEBHOOK -> null;
    };
  }

  private boolean onPath(String program) {
    for (String dir : env.getOrDefault("PATH", "").split(":"))
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) return true;
    return false;
  }

  void send(Notice n, NotifyTarget t) throws Failed {
    switch (t.kind()) {
      case DESKTOP -> run(List.of("notify-send", "-a", "gq", "-u", urgency(n), n.title(), n.text()), desktopEnv(), null);
      case COMMAND -> run(t.argv(), commandEnv(n), null);
      case MAIL -> run(List.of(sendmail(), "-t"), env, mail(n, t.address()));
      case WEBHOOK -> post(n, t.address());
    }
  }

  private static String urgency(Notice n) {
    return n.kind() == NoticeKind.FAILED || n.kind() == NoticeKind.HELD
        || n.kind() == NoticeKind.UNHEALTHY
        ? "critical" : "normal";
  }

  Map<String, String> desktopEnv() {
    Map<String, String> e = new HashMap<>(env);
    Path bus = userRuntime.resolve(String.valueOf(uid)).resolve("bus");
    if (isBlank(e.get("DBUS_SESSION_BUS_ADDRESS")) && Files.exists(bus)) e.put("DBUS_SESSION_BUS_ADDRESS", "unix:path=" + bus);
    if (isBlank(e.get("XDG_RUNTIME_DIR")) && Files.isDirectory(bus.getParent())) e.put("XDG_RUNTIME_DIR", bus.getParent().toString());
    return e;
  }

  private Map<String, String> commandEnv(Notice n) {
    Map<String, String> e = new HashMap<>(env);
    e.put("GQ_EVENT", n.kind().word());
    e.put("GQ_MESSAGE", n.text());
    e.put("GQ_TITLE", n.title());
    e.put("GQ_JOB_ID", n.jobId() == null ? "" : String.valueOf(n.jobId()));
    e.put("GQ_GROUP", n.group() == null ? "" : n.group());
    e.put("GQ_STATE", n.state() == null ? "" : n.state());
    e.put("GQ_RUNTIME_SECONDS", n.runtime() == null ? "" : String.valueOf(n.runtime().toSeconds()));
    return e;
  }

  /** The sendmail the system has, or the one on PATH. */
  String sendmail() throws Failed {
    for (String p : List.of("/usr/sbin/sendmail", "/usr/lib/sendmail")) if (Files.isExecutable(Path.of(p))) return p;
    for (String dir : env.getOrDefault("PATH", "").split(":"))
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "sendmail"))) return Path.of(dir, "sendmail").toString();
    throw new Failed("sendmail is not installed here (/usr/sbin/sendmail or on PATH), so mail messages will fail; install a"
        + " mail transfer agent that provides it (Debian/Ubuntu: sudo apt install msmtp-mta, or postfix) or use another target");
  }

  private static byte[] mail(Notice n, String to) {
    String text = "To: " + to + "\nSubject: " + n.title().replaceAll("[\r\n]", " ") + "\n"
        + "Content-Type: text/plain; charset=UTF-8\n\n" + n.text() + "\n";
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private void run(List<String> argv, Map<String, String> environment, byte[] stdin) throws Failed {
    ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().putAll(environment);
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    if (stdin == null) pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Process p;
    try {
      p = pb.start();
    } catch (IOException e) {
      throw new Failed(NoticeFailures.notStarted(argv.get(0), e));
    }
    try {
      if (stdin != null) {
        try (OutputStream in = p.getOutputStream()) {
          in.write(stdin);
        }
      }
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        throw new Failed(argv.get(0) + " did not finish within " + Durations.format(timeout) + "; stopped");
      }
    } catch (IOException e) {
      throw new Failed(argv.get(0) + " closed its input before it read the message");
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new Failed("interrupted");
    }
    if (p.exitValue() != 0) throw new Failed(argv.get(0) + " exited with status " + p.exitValue());
  }

  private void post(Notice n, String url) throws Failed {
    ObjectNode body = JSON.createObjectNode();
    body.put("text", "gq: " + n.text()).put("content", "gq: " + n.text()).put("event", n.kind().word()).put("title", n.title());
    if (n.jobId() != null) body.put("job_id", n.jobId());
    if (n.group() != null) body.put("group", n.group());
    if (n.state() != null) body.put("state", n.state());
    String where = NotifyTarget.masked(url);
    HttpRequest req;
    try {
      req = HttpRequest.newBuilder(URI.create(url)).timeout(timeout)
          .header("Content-Type", "application/json").header("User-Agent", "gq")
          .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build();
    } catch (IllegalArgumentException | IOException e) {
      throw new Failed("webhook " + where + " is not a valid URL");
    }
    // the request's own timeout ends at the answer's headers: the whole exchange, body included, is
    // bounded here, and the exchange is cancelled when it is not over by then
    CompletableFuture<HttpResponse<Void>> exchange = http.sendAsync(req, HttpResponse.BodyHandlers.discarding());
    HttpResponse<Void> r;
    try {
      r = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw new Failed("webhook " + where + " did not finish its answer within " + Durations.format(timeout)
          + "; stopped");
    } catch (ExecutionException e) {
      throw new Failed("webhook " + where + " " + NoticeFailures.exchange(e.getCause(), req.uri(), timeout));
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new Failed("interrupted");
    }
    if (r.statusCode() / 100 != 2) throw new Failed("webhook " + where + " answered HTTP " + r.statusCode());
  }

  private static boolean isBlank(String s) {
    return s == null || s.isBlank();
  }
}
