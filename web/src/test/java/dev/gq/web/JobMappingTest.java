package dev.gq.web;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** dcgm-exporter's job mapping: which jobs each GPU's file names, and how the files are written. */
class JobMappingTest {
  @TempDir Path tmp;

  private static GpuStatus gpu(int index, Long owner, String heldBy, List<GpuStatus.Share> shares, List<GpuStatus.Other> others) {
    GpuState state = owner == null && heldBy == null && shares.isEmpty() && others.isEmpty() ? GpuState.FREE : GpuState.RUNNING;
    return new GpuStatus(index, "GPU-" + index, "H100", state, owner, List.of(), 80L << 30, 0, null, heldBy, shares, others);
  }

  @Test
  void aGpuNamesThisUsersJobsByIdAndAnotherUsersAsUserSlashId() {
    assertEquals(List.of("7"), JobMapping.jobs(gpu(0, 7L, null, List.of(), List.of())));
    assertEquals(List.of("3", "4", "bob/9"), JobMapping.jobs(gpu(0, 3L, null,
        List.of(new GpuStatus.Share(3, 0, 2, -1), new GpuStatus.Share(4, 0, 2, -1)), List.of(new GpuStatus.Other("bob's job 9", 100)))));
    assertEquals(List.of("alice/12"), JobMapping.jobs(gpu(1, null, "alice's job 12 (lease from a previous start)", List.of(), List.of())));
    assertEquals(List.of(), JobMapping.jobs(gpu(1, null, "carol's gq job", List.of(), List.of())), "no id, no line");
    assertEquals(List.of(), JobMapping.jobs(gpu(2, null, null, List.of(), List.of())));
  }

  @Test
  void eachGpusFileIsReplacedWholeNeverWrittenThroughALinkAndEmptiedAtTheEnd() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("mapping"));
    Path victim = Files.writeString(tmp.resolve("victim"), "precious\n");
    Files.createSymbolicLink(dir.resolve("0"), victim);
    JobMapping m = JobMapping.in(dir);
    m.write(List.of(gpu(0, 7L, null, List.of(), List.of()), gpu(1, null, null, List.of(), List.of())));
    assertEquals("precious\n", Files.readString(victim), "the link was replaced, not followed");
    assertFalse(Files.isSymbolicLink(dir.resolve("0")));
    assertEquals("7\n", Files.readString(dir.resolve("0")));
    assertEquals("", Files.readString(dir.resolve("1")), "a free GPU's file is there, empty");
    assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("0"), LinkOption.NOFOLLOW_LINKS)));
    m.write(List.of(gpu(0, null, null, List.of(), List.of()), gpu(1, null, "bob's job 3", List.of(), List.of())));
    assertEquals("", Files.readString(dir.resolve("0")), "emptied when the GPU frees");
    assertEquals("bob/3\n", Files.readString(dir.resolve("1")));
    m.close();
    assertEquals("", Files.readString(dir.resolve("1")), "nobody keeps the files true after the page stops");
    try (var left = Files.list(dir)) {
      assertEquals(List.of("0", "1"), left.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file left");
    }
  }

  @Test
  void aLinkOrAMissingFolderIsRefusedInOneLine() throws Exception {
    Path real = Files.createDirectories(tmp.resolve("real"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JobMapping.in(link));
    assertEquals("the job mapping folder " + link + " is not a folder (or is a link); make it with mkdir -p " + link, e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> JobMapping.in(tmp.resolve("absent")));
  }
}
