package dev.gq.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The page server, on the JDK's own HTTP server: GET and HEAD only; every address but an open
 * {@code /metrics} needs the token, when there is one (else 403, empty); the machine page, a job's
 * page, their event streams, the metrics and the jar's two static files, nothing else (404). The
 * lab's page has no job pages and reads nothing of the jobs (404 for their addresses). At most
 * {@link #MAX_REQUESTS} answers at once and {@link #MAX_STREAMS} of them event streams; one more is
 * 503.
 */
final class PageServer implements AutoCloseable {
  static final int MAX_REQUESTS = 48;
  static final int MAX_STREAMS = 32;
  static final Duration TICK = Duration.ofSeconds(1);
  static final Duration HEARTBEAT = Duration.ofSeconds(15);
  private static final Pattern JOB = Pattern.compile("/job/([0-9]{1,18})");
  private static final Pattern JOB_EVENTS = Pattern.compile("/events/job/([0-9]{1,18})");

  private final HttpServer http;
  private final ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
  private final GqApi api;
  private final String token;
  private final boolean metricsOpen;
  private final boolean lab;
  private final ViewReads reads;
  private final LiveFeed feed;
  private final JobFeed jobs;
  private final Semaphore requests = new Semaphore(MAX_REQUESTS);
  private final Semaphore streams = new Semaphore(MAX_STREAMS);

  /** What is served: the lab's page or this user's, the token (null: none needed) and whether {@code /metrics} is open. */
  record Site(boolean lab, String token, boolean metricsOpen) {}

  PageServer(GqApi api, InetSocketAddress at, Site site, String user) throws IOException {
    this.api = api;
    this.token = site.token();
    this.metricsOpen = site.metricsOpen();
    this.lab = site.lab();
    this.reads = new ViewReads(api, user);
    this.feed = new LiveFeed(() -> lab ? Pages.labSections(look(), token) : Pages.sections(look(), token), TICK, HEARTBEAT);
    this.jobs = new JobFeed(api, ZoneId.systemDefault(), TICK, HEARTBEAT);
    this.http = HttpServer.create(at, 64);
    http.setExecutor(pool);
    http.createContext("/", this::handle);
    http.start();
  }

  int port() {
    return http.getAddress().getPort();
  }

  private MachineView look() {
    try {
      return lab ? reads.readPublic() : reads.read();
    } catch (ApiException e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  private void handle(HttpExchange ex) {
    if (!requests.tryAcquire()) {
      quietly(ex, 503);
      return;
    }
    try (ex) {
      route(ex);
    } catch (IOException | UncheckedIOException e) {
      // the browser went away: nothing to tell it
    } catch (ApiException | RuntimeException e) {
      quietly(ex, 500);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      requests.release();
    }
  }

  private void route(HttpExchange ex) throws IOException, ApiException, InterruptedException {
    Replies.secure(ex);
    String method = ex.getRequestMethod();
    if (!method.equals("GET") && !method.equals("HEAD")) {
      Replies.empty(ex, 405);
      return;
    }
    String path = ex.getRequestURI().getRawPath();
    if (path.equals("/metrics") && metricsOpen) {
      metrics(ex);
      return;
    }
    if (token != null && !Token.carried(ex.getRequestURI().getRawQuery(), token)) {
      Replies.empty(ex, 403);
      return;
    }
    switch (path) {
      case "/" -> Replies.html(ex, lab ? Pages.lab(look(), token) : Pages.machine(look(), token));
      case "/events" -> stream(ex, out -> feed.serve(out));
      case "/metrics" -> metrics(ex);
      case "/static/page.js" -> Replies.asset(ex, "page.js");
      case "/static/page.css" -> Replies.asset(ex, "page.css");
      default -> {
        if (lab) Replies.empty(ex, 404);
        else jobRoute(ex, path);
      }
    }
  }

  private void jobRoute(HttpExchange ex, String path) throws IOException, ApiException, InterruptedException {
    Matcher page = JOB.matcher(path), events = JOB_EVENTS.matcher(path);
    Optional<Job> job = page.matches() ? api.job(Long.parseLong(page.group(1)))
        : events.matches() ? api.job(Long.parseLong(events.group(1))) : Optional.empty();
    if (job.isEmpty()) {
      Replies.empty(ex, 404);
      return;
    }
    Job j = job.get();
    if (page.matches()) {
      var e = j.state() == JobState.RUNNING ? api.progress(List.of(j.id())).get(j.id()) : null;
      LogText log = LogText.tail(api, j.logPath());
      Replies.html(ex, Pages.job(j, e, api.waitReasons(List.of(j.id())).get(j.id()), ZoneId.systemDefault(), log, token));
      return;
    }
    String from = Token.param(ex.getRequestURI().getRawQuery(), "from");
    long at = from != null && from.matches("[0-9]{1,18}") ? Long.parseLong(from) : 0;
    stream(ex, out -> jobs.serve(out, j.id(), at));
  }

  private interface Follow {
    void run(SseStream out) throws IOException, InterruptedException, ApiException;
  }

  private void stream(HttpExchange ex, Follow follow) throws IOException, InterruptedException, ApiException {
    if (!streams.tryAcquire()) {
      Replies.empty(ex, 503);
      return;
    }
    try {
      follow.run(new SseStream(ex));
    } finally {
      streams.release();
    }
  }

  private void metrics(HttpExchange ex) throws IOException, ApiException {
    MachineView v = look();
    var buf = new ByteArrayOutputStream(8192);
    MetricsText.write(v, new MetricsText.Health(api.journalProblem(), api.partLines()), buf);
    Replies.body(ex, "text/plain; version=0.0.4; charset=utf-8", buf.toByteArray());
  }

  private static void quietly(HttpExchange ex, int status) {
    try (ex) {
      Replies.empty(ex, status);
    } catch (IOException | RuntimeException ignored) {
      // the answer could not be sent: the browser is gone
    }
  }

  /** How many browsers follow the machine page now. */
  int following() {
    return feed.following();
  }

  @Override
  public void close() {
    feed.close();
    http.stop(0);
    pool.shutdownNow();
  }
}
