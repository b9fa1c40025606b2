package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rule for directories that hold gq's socket and data: the user's own, writable by nobody else. */
class PrivateDirectoryTest {
  @TempDir Path dir;

  @Test
  void anotherUsersDirectoryIsRefusedWithTheSettingToChange() {
    assertEquals("the runtime directory /r belongs to uid 1001, not to you (uid 1000), and its owner could read"
            + " what gq keeps there; set GQ_RUNTIME_DIR to a directory of your own",
        PrivateDirectory.problem("the runtime directory", "GQ_RUNTIME_DIR", Path.of("/r"), 1001, 0700, 1000));
  }

  @Test
  void aDirectoryOthersCanWriteIsRefused() {
    assertEquals("the data directory /d can be written by other users (mode 0775); run 'chmod go-w /d',"
            + " or set GQ_DATA_DIR to a private directory",
        PrivateDirectory.problem("the data directory", "GQ_DATA_DIR", Path.of("/d"), 1000, 0775, 1000));
    assertTrue(PrivateDirectory.problem("d", "S", Path.of("/d"), 1000, 01777, 1000).contains("mode 1777"));
  }

  @Test
  void ownPrivateOrReadableDirectoriesPass() {
    assertNull(PrivateDirectory.problem("d", "S", Path.of("/d"), 1000, 0700, 1000));
    assertNull(PrivateDirectory.problem("d", "S", Path.of("/d"), 1000, 0755, 1000));
  }

  @Test
  void checksTheRealDirectoryAndAcceptsAMissingOne() throws Exception {
    assertNull(PrivateDirectory.check("d", "S", dir.resolve("missing"), false));
    Path open = Files.createDirectory(dir.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertTrue(PrivateDirectory.check("d", "S", open, false).contains("can be written by other users (mode 0777)"));
    Path file = Files.writeString(dir.resolve("file"), "");
    assertTrue(PrivateDirectory.check("d", "S", file, false).contains("is not a directory"));
  }

  @Test
  void aLinkIsRefusedWhereOnlyARealDirectoryWillDo() throws Exception {
    Path real = Files.createDirectory(dir.resolve("real"));
    Path link = Files.createSymbolicLink(dir.resolve("logs"), real);
    assertNull(PrivateDirectory.check("d", "S", link, false));
    assertTrue(PrivateDirectory.check("the log directory", "GQ_DATA_DIR", link, true)
        .contains("is not a directory (a symbolic link is not accepted there)"));
  }

  @Test
  void myUidIsThisProcesssOwner() throws Exception {
    assertEquals(Files.getAttribute(dir, "unix:uid"), PrivateDirectory.myUid());
  }
}
