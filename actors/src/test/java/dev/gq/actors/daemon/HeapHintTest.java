package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.health.DaemonHeap;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The heap the queue needs is noted at once when a write changes it, so that a daemon stopped right
 * after a long batch leaves the limit for the queue it holds; a note that would not change the
 * limit writes nothing.
 */
class HeapHintTest {
  @TempDir Path data;

  @Test
  void theLimitIsNotedAtOnceAndOnlyWhenItChanges() throws Exception {
    HeapHint hint = new HeapHint(data);
    Path file = HeapHint.file(data);
    hint.note(0);
    assertEquals("160m\n", Files.readString(file));
    hint.note(100_000);
    assertEquals(DaemonHeap.flag(100_000) + "\n", Files.readString(file), "at once, not a minute later");
    Files.writeString(file, "changed by hand\n");
    hint.note(100_001);
    assertEquals("changed by hand\n", Files.readString(file), "the same limit: nothing written");
    hint.note(0);
    assertEquals("160m\n", Files.readString(file), "the queue emptied");
  }
}
