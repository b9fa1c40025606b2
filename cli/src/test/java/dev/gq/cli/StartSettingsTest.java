package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.StartSettings;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartSettingsTest {
  @Test
  void aSettingTheShellSetsOtherwiseThanTheDaemonIsNamedWithRestart() {
    assertEquals("note: GQ_FAKE_NVML=/tmp/fake (the daemon's: unset) is read by the daemon when it starts, and the running one"
        + " started with another value; 'gq daemon restart' applies it (running jobs keep running)",
        StartSettings.note(Map.of("GQ_FAKE_NVML", "/tmp/fake"), Map.of()));
    String two = StartSettings.note(Map.of("GQ_FAKE_NVML", "/a", "GQ_POLL_INTERVAL_MS", "100"),
        Map.of("GQ_FAKE_NVML", "/b", "GQ_POLL_INTERVAL_MS", "1000"));
    assertTrue(two.contains("GQ_FAKE_NVML=/a (the daemon's: /b), GQ_POLL_INTERVAL_MS=100 (the daemon's: 1000) are read"), two);
  }

  @Test
  void agreeingOrUnsetOrUnrelatedSettingsSayNothing() {
    assertNull(StartSettings.note(Map.of("GQ_FAKE_NVML", "/a"), Map.of("GQ_FAKE_NVML", "/a")));
    assertNull(StartSettings.note(Map.of(), Map.of("GQ_FAKE_NVML", "/a")), "the shell does not set it");
    assertNull(StartSettings.note(Map.of("GQ_GROUP", "g", "GQ_DATA_DIR", "/d"), Map.of()), "read per command, not at start");
  }

  @Test
  void everyCommandButTheDaemonsOwnSaysItOnStderr() {
    Cli cli = new Cli(Path.of("/tmp"));
    cli.io.env.put("GQ_FAKE_NVML", "/tmp/fake");
    cli.api.startSettings = Map.of();
    assertTrue(cli.run("ps").err().startsWith("gq: note: GQ_FAKE_NVML=/tmp/fake (the daemon's: unset)"));
    assertFalse(cli.run("daemon", "status").err().contains("note:"), "restart is the remedy; status and stop say their own");
    cli.api.startSettings = null;
    assertEquals("", cli.run("ps").err(), "a daemon that cannot tell");
  }
}
