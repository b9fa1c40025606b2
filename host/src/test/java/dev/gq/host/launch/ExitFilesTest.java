package dev.gq.host.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.launch.ExitRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExitFilesTest {

  private static final Instant WRITTEN = Instant.parse("2026-11-30T09:00:00.250Z");
  @TempDir Path dir;

  /** The record read from a file of {@code content}. */
  private Optional<ExitRecord> readContent(String content) throws Exception {
    Path file = dir.resolve("1.exit");
    Files.writeString(file, content);
    return ExitFiles.read(file);
  }

  @Test
  void theJobEndedWhenTheShimSawNothingOfItLeftNotWhenTheFileWasLastModified() throws Exception {
    Path file = dir.resolve("2.exit");
    Files.writeString(file, "exit 0\npid 812\nalone\nended 1796029200.250000000\n");
    Files.setLastModifiedTime(file, FileTime.from(WRITTEN.plusSeconds(60)));
    assertEquals(WRITTEN, ExitFiles.read(file).orElseThrow().writtenAt());
    // processes of the job were left when the shim ended: the end is when gq sees them gone
    Files.writeString(file, "exit 0\npid 812\nended 1796029200.250000000\n");
    assertNull(ExitFiles.read(file).orElseThrow().writtenAt());
    Files.writeString(file, "exit 0\npid 812\nalone\n");
    assertNull(ExitFiles.read(file).orElseThrow().writtenAt(), "a shim that wrote no end time");
    assertEquals(Optional.empty(), readContent("exit 0\nalone\nended 17644932\n"));
  }

  @Test
  void readsEachKindOfRecord() throws Exception {
    assertEquals(Optional.of(ExitRecord.exited(3)), readContent("exit 3\n"));
    assertEquals(Optional.of(ExitRecord.signalled(15)), readContent("signal 15\n"));
    assertEquals(Optional.of(ExitRecord.execFailed("cannot run 'x': No such file or directory")),
        readContent("exec-error cannot run 'x': No such file or directory\n"));
  }

  @Test
  void readsTheShimsPidAndRecordsWrittenWithoutIt() throws Exception {
    assertEquals(Optional.of(ExitRecord.exited(3).withPid(812L)), readContent("exit 3\npid 812\nalone\n"));
    assertEquals(Optional.of(ExitRecord.signalled(9)), readContent("signal 9\nalone\n"));
    assertTrue(ExitFiles.leftNothing(dir.resolve("1.exit")));
  }

  @Test
  void missingGarbageOrOversizedFilesAreEmpty() throws Exception {
    assertEquals(Optional.empty(), ExitFiles.read(dir.resolve("none.exit")));
    assertEquals(Optional.empty(), ExitFiles.read(dir));
    assertEquals(Optional.empty(), readContent(""));
    assertEquals(Optional.empty(), readContent("exit three\n"));
    assertEquals(Optional.empty(), readContent("exit 1" + " ".repeat(5000) + "\n"));
  }

  @Test
  void aLinkInPlaceOfTheExitFileIsNotFollowed() throws Exception {
    Path target = java.nio.file.Files.writeString(dir.resolve("elsewhere"), "exit 0\n");
    Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("7.exit"), target);
    assertEquals(Optional.empty(), ExitFiles.read(link));
  }
}
