package dev.gq.actors.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.end.DiskFull;
import dev.gq.protocol.DiskRoom;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The client words a full disk from protocol's {@link DiskRoom} (it cannot depend on core); the
 * daemon's reports carry {@link DiskFull}. Both say the same.
 */
class DiskNoteTest {
  @Test
  void theClientsNoteAndTheReportsFactReadAlike() {
    for (long free : new long[] {0, 1023, 512 * 1024, DiskRoom.FULL_BELOW - 1}) {
      Path dir = Path.of("/data/gq/run");
      assertEquals(DiskRoom.note(dir, free), DiskFull.of(dir, free).text());
    }
  }
}
