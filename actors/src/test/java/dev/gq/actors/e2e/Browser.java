package dev.gq.actors.e2e;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's chromium driven headless through its chromedriver, for the tests of the page gq web
 * serves. Where either is missing the test is skipped with the reason, or fails where a browser is
 * required (GQ_REQUIRE_BROWSER=1, as CI sets it). The flags keep a machine without internet from
 * stalling it; the profile is a fresh folder.
 */
final class Browser {
  private static final List<Path> BROWSERS = List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromium-browser"));
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");

  private Browser() {}

  static ChromeDriver start(Path profile) {
    Path binary = BROWSERS.stream().filter(Files::isExecutable).findFirst().orElse(null);
    if (binary == null) unavailable("no chromium at " + BROWSERS + "; install the Debian package chromium");
    if (!Files.isExecutable(DRIVER)) unavailable("no chromedriver at " + DRIVER + "; install the Debian package chromium-driver");
    ChromeOptions o = new ChromeOptions();
    o.setBinary(binary.toFile());
    o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
        "--user-data-dir=" + profile, "--window-size=1280,900");
    LoggingPreferences logs = new LoggingPreferences();
    logs.enable(LogType.BROWSER, Level.ALL);
    o.setCapability("goog:loggingPrefs", logs);
    ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(new File(DRIVER.toString()))
        .withTimeout(Duration.ofSeconds(30)).build();
    return new ChromeDriver(service, o);
  }

  private static void unavailable(String reason) {
    if ("1".equals(System.getenv("GQ_REQUIRE_BROWSER"))) throw new AssertionError("a browser is required here (GQ_REQUIRE_BROWSER=1) but " + reason);
    Assumptions.abort(reason);
  }
}
