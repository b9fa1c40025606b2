package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page {@code gq web} serves, in a real browser (headless chromium) against the real daemon on
 * fake GPUs: it loads with the token and is refused without; it shows the GPUs and the jobs; a
 * submit appears within 2 s without a reload; a job's log follows live; a forged job name shows as
 * text; the browser's console stays clean; {@code gq web --stop} ends it. The lab's page loads
 * without a token and shows the GPUs and everyone's line, and nothing of the jobs. dcgm-exporter's
 * job mapping names a job in its GPU's file while it runs, and nothing once it ends.
 */
class WebEndToEndTest {
  private static final Duration T = Duration.ofSeconds(45);
  private static final String FORGED = "<img src=x onerror=alert(1)>";
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path tmp;

  static HttpResponse<String> get(String url, String method) throws Exception {
    HttpRequest r = HttpRequest.newBuilder(URI.create(url)).method(method, HttpRequest.BodyPublishers.noBody()).build();
    return HTTP.send(r, HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void thePageIsLiveInABrowserAndClosedToAnyoneWithoutTheToken() throws Exception {
    ChromeDriver browser = Browser.start(tmp.resolve("profile"));
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 2)) {
      long forged = g.submit("run", "-g", "1", "--name", FORGED, "bash", "-c",
          "for i in $(seq 1 600); do echo \"line $i\"; sleep 0.2; done");
      g.awaitState(forged, "RUNNING", T);
      Gqd.Result web = g.gq("web");
      assertEquals(0, web.code(), web.err());
      Matcher m = Pattern.compile("Serving the page at (http://127\\.0\\.0\\.1:([0-9]+)/\\?token=([0-9a-f]{64}))").matcher(web.out());
      assertTrue(m.find(), web.out());
      String url = m.group(1), base = "http://127.0.0.1:" + m.group(2), token = m.group(3);
      assertTrue(web.out().contains("ssh -L " + m.group(2) + ":127.0.0.1:" + m.group(2) + " "), web.out());
      assertTrue(g.gq("daemon", "status").out().contains("Web:       " + url));
      refusals(base, token);

      browser.get(url);
      WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(10));
      wait.until(d -> d.findElement(By.id("live")).getText().startsWith("Live"));
      assertEquals(2, browser.findElements(By.cssSelector("[data-live=gpus] tbody tr")).size(), "both fake GPUs");
      String jobs = browser.findElement(By.cssSelector("[data-live=jobs]")).getText();
      assertTrue(jobs.contains(FORGED), "the forged name shows as text: " + jobs);
      assertTrue(browser.findElements(By.tagName("img")).isEmpty(), "and never as an element");

      ((JavascriptExecutor) browser).executeScript("window.gqMarker = 42");
      long later = g.submit("run", "-g", "0", "--name", "submitted-after-load", "sleep", "30");
      new WebDriverWait(browser, Duration.ofSeconds(2)).until(d ->
          d.findElement(By.cssSelector("[data-live=jobs]")).getText().contains("submitted-after-load"));
      assertEquals(42L, ((JavascriptExecutor) browser).executeScript("return window.gqMarker"), "no reload");

      browser.findElement(By.linkText(Long.toString(forged))).click();
      wait.until(d -> d.findElement(By.id("log")).getText().contains("line "));
      ((JavascriptExecutor) browser).executeScript("window.gqMarker = 43");
      int shown = lastLine(browser.findElement(By.id("log")).getText());
      wait.until(d -> lastLine(d.findElement(By.id("log")).getText()) >= shown + 5);
      assertEquals(43L, ((JavascriptExecutor) browser).executeScript("return window.gqMarker"), "the log grew without a reload");
      assertTrue(browser.findElement(By.tagName("h1")).getText().contains(FORGED));

      List<LogEntry> problems = browser.manage().logs().get(LogType.BROWSER).getAll().stream()
          .filter(e -> e.getLevel().intValue() >= Level.WARNING.intValue()).toList();
      assertEquals(List.of(), problems, "the browser's console");

      assertEquals(0, g.gq("web", "--stop").code());
      assertThrows(IOException.class, () -> get(url, "GET"), "nothing serves after --stop");
      g.gq("cancel", Long.toString(forged), Long.toString(later));
    } finally {
      browser.quit();
    }
  }

  @Test
  void theLabsPageShowsTheGpusAndEveryoneWithoutATokenAndNothingOfTheJobs() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 2)) {
      long job = g.submit("run", "-g", "1", "--name", "private-name", "sleep", "60");
      g.awaitState(job, "RUNNING", T);
      // everyone's GPUs come from the GPU leases as the last reading saw them, up to a reading after
      // the launch took its lease
      Gqd.await("gq who to show root's GPU", T, () -> g.gq("who").out().contains("root"));
      assertEquals(2, g.gq("web", "--listen", "0.0.0.0:8080").code(), "--listen is for the lab's page only");
      Gqd.Result web = g.gq("web", "--lab", "--listen", "127.0.0.1:0");
      assertEquals(0, web.code(), web.err());
      Matcher m = Pattern.compile("Serving the lab's page at (http://127\\.0\\.0\\.1:[0-9]+)/\\n").matcher(web.out());
      assertTrue(m.find(), web.out());
      String base = m.group(1);
      assertTrue(g.gq("daemon", "status").out().contains("Web:       " + base + "/ (the lab's page)"));
      HttpResponse<String> page = get(base + "/", "GET");
      assertEquals(200, page.statusCode());
      for (String s : List.of(Gqd.uuid(0), Gqd.uuid(1), "Everyone on this machine", "root's job " + job, "<th scope=\"row\">root</th>"))
        assertTrue(page.body().contains(s), s + " in " + page.body());
      for (String s : List.of("private-name", "sleep 60", g.work.toString(), "/job/"))
        assertFalse(page.body().contains(s), s + " on the lab's page: " + page.body());
      assertEquals(404, get(base + "/job/" + job, "GET").statusCode());
      assertEquals(200, get(base + "/metrics", "GET").statusCode());
      Gqd.Result other = g.gq("web", "--lab", "--token", "--listen", "127.0.0.1:0");
      assertEquals(1, other.code(), "a page with other settings is refused while one is served: " + other);
      assertEquals(0, g.gq("web", "--stop").code());
      Gqd.Result tokened = g.gq("web", "--lab", "--token");
      Matcher t = Pattern.compile("at (http://127\\.0\\.0\\.1:[0-9]+)/\\?token=[0-9a-f]{64}").matcher(tokened.out());
      assertTrue(t.find(), tokened.out());
      assertEquals(403, get(t.group(1) + "/", "GET").statusCode(), "--token: none, no page");
      g.gq("cancel", Long.toString(job));
    }
  }

  @Test
  void theJobMappingNamesARunningJobInItsGpusFileAndNothingOnceItEnds() throws Exception {
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 2)) {
      Path dir = Files.createDirectories(tmp.resolve("mapping"));
      Gqd.Result web = g.gq("web", "--job-mapping-dir", dir.toString());
      assertEquals(0, web.code(), web.err());
      assertTrue(web.out().contains("Job mapping for dcgm-exporter: " + dir), web.out());
      assertEquals(List.of("", ""), mapping(dir), "a file per GPU, empty while free");
      long job = g.submit("run", "-g", "1", "sleep", "60");
      g.awaitState(job, "RUNNING", T);
      Gqd.await("the job in its GPU's file", T, () -> mapping(dir).contains(job + "\n"));
      assertTrue(mapping(dir).contains(""), "the other GPU's file stays empty: " + mapping(dir));
      assertTrue(g.gq("daemon", "status").out().contains("Mapping:   " + dir));
      g.gq("cancel", Long.toString(job));
      Gqd.await("both files empty once the job ends", T, () -> mapping(dir).equals(List.of("", "")));
      assertEquals(0, g.gq("web", "--stop").code());
    }
  }

  private static List<String> mapping(Path dir) {
    try {
      return List.of(Files.readString(dir.resolve("0")), Files.readString(dir.resolve("1")));
    } catch (IOException e) {
      return List.of();
    }
  }

  /** Without the token, with a wrong one, with another method or another path: nothing is told. */
  private static void refusals(String base, String token) throws Exception {
    for (String u : List.of(base + "/", base + "/?token=" + "0".repeat(64), base + "/metrics", base + "/job/1",
        base + "/events", base + "/static/page.js")) {
      HttpResponse<String> r = get(u, "GET");
      assertEquals(403, r.statusCode(), u);
      assertEquals("", r.body(), u);
    }
    assertEquals(405, get(base + "/?token=" + token, "POST").statusCode());
    assertEquals(404, get(base + "/static/../../etc/passwd?token=" + token, "GET").statusCode());
    assertEquals(404, get(base + "/static/?token=" + token, "GET").statusCode());
    HttpResponse<String> metrics = get(base + "/metrics?token=" + token, "GET");
    assertEquals(200, metrics.statusCode());
    assertTrue(metrics.body().contains("gq_gpu_state{gpu=\"0\""), metrics.body());
    HttpResponse<String> page = get(base + "/?token=" + token, "GET");
    assertTrue(page.headers().firstValue("Content-Security-Policy").orElse("").contains("script-src 'self'"));
  }

  private static int lastLine(String log) {
    Matcher m = Pattern.compile("line ([0-9]+)\\s*$").matcher(log);
    return m.find() ? Integer.parseInt(m.group(1)) : 0;
  }
}
