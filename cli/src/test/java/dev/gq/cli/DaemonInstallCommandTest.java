package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonInstallCommandTest {
  @TempDir Path home;

  @Test
  void installWritesAUnitThatNeverKillsJobsAndUninstallRemovesIt() throws Exception {
    FakeIo io = new FakeIo(home);
    io.env.put("GQ_DAEMON_CMD", "/opt/gq/lib/gq/bin/gq-daemon");
    io.env.put("GQ_DATA_DIR", "/data/gq dir");
    assertEquals(0, Gq.run(List.of("daemon", "install"), io, new FakeApi()));
    Path unit = home.resolve(".config/systemd/user/gq.service");
    String text = Files.readString(unit);
    assertTrue(text.contains("ExecStart=\"/opt/gq/lib/gq/bin/gq-daemon\""), text);
    assertTrue(text.contains("KillMode=process"), text);
    assertTrue(text.contains("Environment=\"GQ_DATA_DIR=/data/gq dir\""), text);
    assertTrue(io.stdout().contains("loginctl enable-linger"), io.stdout());
    assertEquals(0, Gq.run(List.of("daemon", "uninstall"), io, new FakeApi()));
    assertFalse(Files.exists(unit));
  }

  @Test
  void installWithoutTheDaemonCommandIsRefusedWithOneLine() {
    FakeIo io = new FakeIo(home);
    assertEquals(1, Gq.run(List.of("daemon", "install"), io, new FakeApi()));
    assertTrue(io.stderr().contains("GQ_DAEMON_CMD"), io.stderr());
  }

  @Test
  void percentAndQuotesAreEscapedForSystemd() {
    assertEquals("\"a%%b\\\"c\"", SystemdUnit.quote("a%b\"c"));
  }
}
