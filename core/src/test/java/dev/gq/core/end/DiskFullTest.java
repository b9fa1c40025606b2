package dev.gq.core.end;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A full disk as a report carries it: the directory and the bytes free, worded in one place. */
class DiskFullTest {
  @Test
  void itNamesTheDirectoryAndTheKibibytesFree() {
    assertEquals("the disk holding /data/run is full (512 KiB free)", new DiskFull("/data/run", 512 * 1024 + 1023).text());
    assertEquals("the disk holding /data/run is full (0 KiB free)", DiskFull.of(Path.of("/data/run"), 0).text());
  }

  @Test
  void aNegativeCountMeansTheDiskHadRoom() {
    assertNull(DiskFull.of(Path.of("/data/run"), -1));
  }
}
