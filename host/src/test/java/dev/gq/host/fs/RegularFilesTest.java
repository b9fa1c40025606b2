package dev.gq.host.fs;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RegularFilesTest {
  @TempDir Path dir;

  @Test
  void readsARegularFile() throws IOException {
    Path f = Files.writeString(dir.resolve("1.log"), "hello\n");
    try (FileChannel ch = RegularFiles.openForReading(f)) {
      ByteBuffer b = ByteBuffer.allocate(64);
      ch.read(b);
      assertEquals("hello\n", new String(b.array(), 0, b.position(), StandardCharsets.UTF_8));
    }
  }

  @Test
  void aNamedPipeIsRefusedWithoutWaitingForAWriter() throws Exception {
    Path fifo = dir.resolve("2.log");
    assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start().waitFor());
    var e = assertTimeoutPreemptively(Duration.ofSeconds(5),
        () -> assertThrows(RegularFiles.NotRegularFileException.class, () -> RegularFiles.openForReading(fifo)));
    assertEquals("a named pipe", e.kind());
    assertTrue(e.getMessage().contains(fifo.toString()), e.getMessage());
  }

  @Test
  void aSymbolicLinkIsNotFollowed() throws IOException {
    Path target = Files.writeString(dir.resolve("secret"), "x");
    Path link = Files.createSymbolicLink(dir.resolve("3.log"), target);
    var e = assertThrows(RegularFiles.NotRegularFileException.class, () -> RegularFiles.openForReading(link));
    assertEquals("a symbolic link", e.kind());
  }

  @Test
  void aDirectoryIsRefused() {
    var e = assertThrows(RegularFiles.NotRegularFileException.class, () -> RegularFiles.openForReading(dir));
    assertEquals("a directory", e.kind());
  }

  @Test
  void aMissingFileIsNoSuchFile() {
    assertThrows(NoSuchFileException.class, () -> RegularFiles.openForReading(dir.resolve("none.log")));
  }
}
