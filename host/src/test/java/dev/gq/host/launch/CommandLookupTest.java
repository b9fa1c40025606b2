package dev.gq.host.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A command that cannot be run is found before the spawn, in the shim's words. */
class CommandLookupTest {
  @TempDir Path dir;
  Path bin;

  private Path file(Path at, String perms) throws Exception {
    Files.createDirectories(at.getParent());
    Files.writeString(at, "#!/bin/sh\n");
    Files.setPosixFilePermissions(at, PosixFilePermissions.fromString(perms));
    return at;
  }

  @BeforeEach
  void setUp() throws Exception {
    bin = dir.resolve("bin");
    file(bin.resolve("tool"), "rwx------");
    file(bin.resolve("plain"), "rw-------");
    Files.createDirectories(bin.resolve("folder"));
  }

  @Test
  void aCommandOnThePathMayRun() {
    assertNull(CommandLookup.problem("tool", "/nowhere:" + bin, dir));
  }

  @Test
  void aNameFoundNowhereOnThePathIsMissing() {
    assertEquals("cannot run 'uv': No such file or directory", CommandLookup.problem("uv", bin.toString(), dir));
  }

  @Test
  void aNameFoundOnlyWithoutExecutePermissionIsDenied() {
    assertEquals("cannot run 'plain': Permission denied", CommandLookup.problem("plain", bin.toString(), dir));
    assertEquals("cannot run 'folder': Permission denied", CommandLookup.problem("folder", bin.toString(), dir));
  }

  @Test
  void aNameWithASlashIsTakenFromTheJobsDirectory() {
    assertNull(CommandLookup.problem("bin/tool", "", dir));
    assertNull(CommandLookup.problem(bin.resolve("tool").toString(), null, dir));
    assertEquals("cannot run '/nonexistent/trainer': No such file or directory",
        CommandLookup.problem("/nonexistent/trainer", bin.toString(), dir));
    assertEquals("cannot run './plain': Permission denied", CommandLookup.problem("./plain", null, bin));
  }

  @Test
  void anEmptyPathEntryIsTheJobsDirectoryAndNoPathIsTheDefault() {
    assertNull(CommandLookup.problem("tool", ":/nowhere", bin));
    assertNull(CommandLookup.problem("sh", null, dir));
    assertEquals("cannot run 'tool': No such file or directory", CommandLookup.problem("tool", null, dir));
  }

  @Test
  void anEmptyCommandIsMissing() {
    assertEquals("cannot run '': No such file or directory", CommandLookup.problem("", null, dir));
  }
}
