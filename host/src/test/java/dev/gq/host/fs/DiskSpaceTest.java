package dev.gq.host.fs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disk reserve is private like every gq file, and never written through a planted link. */
class DiskSpaceTest {
  @TempDir Path dir;

  @Test
  void theReserveIsPrivateEvenWhenAnOlderOneWasNot() throws Exception {
    DiskSpace.ensureReserve(dir);
    Path reserve = dir.resolve(".reserve");
    assertEquals(DiskSpace.RESERVE_BYTES, Files.size(reserve));
    assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(reserve));
    Files.setPosixFilePermissions(reserve, PosixFilePermissions.fromString("rw-r--r--"));
    DiskSpace.ensureReserve(dir);
    assertEquals(PosixFilePermissions.fromString("rw-------"), Files.getPosixFilePermissions(reserve));
  }

  @Test
  void aLinkInPlaceOfTheReserveIsReplacedNotFollowed() throws Exception {
    Path victim = Files.writeString(dir.resolve("victim"), "precious");
    Files.createSymbolicLink(dir.resolve(".reserve"), victim);
    DiskSpace.ensureReserve(dir);
    assertEquals("precious", Files.readString(victim));
    assertTrue(Files.isRegularFile(dir.resolve(".reserve"), LinkOption.NOFOLLOW_LINKS));
  }
}
