package dev.gq.host.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.proc.ProcInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcFsTest {

  @TempDir Path root;
  ProcFs proc;

  @BeforeEach
  void fixture() throws IOException {
    Files.createDirectories(root.resolve("sys/kernel/random"));
    Files.writeString(root.resolve("sys/kernel/random/boot_id"), "11111111-2222-3333-4444-555555555555\n");
    process(100, "shim", 'S', 1, 100, 100, "GQ_JOB_TAG=t-100\0PATH=/usr/bin\0EMPTY=\0");
    process(101, "python (train)", 'R', 100, 100, 100, "GQ_JOB_TAG=t-100\0A==b\0");
    process(102, "nvidia-smi", 'S', 101, 102, 100, "");
    process(103, "dead", 'Z', 100, 100, 100, "");
    process(200, "other", 'S', 1, 200, 200, "GQ_JOB_TAG=t-200\0");
    Files.createDirectories(root.resolve("300")); // vanished between listing and reading
    Files.createDirectories(root.resolve("self"));
    Files.writeString(root.resolve("uptime"), "1.0 2.0\n");
    proc = new ProcFs(root);
  }

  private void process(long pid, String comm, char state, long ppid, long pgid, long sid, String env)
      throws IOException {
    Path dir = Files.createDirectories(root.resolve(Long.toString(pid)));
    Files.writeString(dir.resolve("stat"), pid + " (" + comm + ") " + state + " " + ppid + " " + pgid + " " + sid
        + " 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 " + (5000 + pid) + " 100 10 0\n");
    Files.writeString(dir.resolve("environ"), env);
  }

  @Test
  void infoReadsTheStatFile() {
    assertEquals(Optional.of(new ProcInfo(101, 100, 100, 100, 5101, 'R', "python (train)")), proc.info(101));
  }

  @Test
  void missingOrUnparsableProcessIsAbsent() throws IOException {
    assertEquals(Optional.empty(), proc.info(999));
    assertEquals(Optional.empty(), proc.info(300));
    Files.writeString(root.resolve("300/stat"), "300 (half");
    assertEquals(Optional.empty(), proc.info(300));
  }

  @Test
  void commandNameWithInvalidUtf8IsStillRead() throws IOException {
    byte[] stat = "400 (bad\u00ff) S 1 400 400 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 7 1 1 0\n"
        .getBytes(StandardCharsets.ISO_8859_1);
    Files.write(Files.createDirectories(root.resolve("400")).resolve("stat"), stat);
    assertEquals(7, proc.info(400).orElseThrow().startTicks());
  }

  @Test
  void statLineLongerThanTheReadBufferIsReadWhole() throws IOException {
    String comm = "\u00e9".repeat(600); // 1,200 bytes of UTF-8: the buffer ends inside a character
    process(500, comm, 'S', 1, 500, 500, "");
    assertEquals(Optional.of(new ProcInfo(500, 1, 500, 500, 5500, 'S', comm)), proc.info(500));
    assertTrue(proc.all().stream().anyMatch(p -> p.pid() == 500 && p.comm().equals(comm)));
  }

  @Test
  void pidsListsEveryProcessZombiesIncluded() {
    assertEquals(java.util.Set.of(100L, 101L, 102L, 103L, 200L, 300L), proc.pids());
  }

  @Test
  void environReadsOneVariable() {
    assertEquals(Optional.of("t-100"), proc.environ(100, "GQ_JOB_TAG"));
    assertEquals(Optional.of("/usr/bin"), proc.environ(100, "PATH"));
    assertEquals(Optional.of(""), proc.environ(100, "EMPTY"));
    assertEquals(Optional.of("=b"), proc.environ(101, "A"));
  }

  @Test
  void carriesMatchesOneWholeEntryOnly() {
    assertTrue(proc.carries(100, "GQ_JOB_TAG", "t-100"));
    assertTrue(proc.carries(101, "GQ_JOB_TAG", "t-100"), "the first entry");
    assertTrue(proc.carries(200, "GQ_JOB_TAG", "t-200"), "the last entry");
    assertFalse(proc.carries(100, "GQ_JOB_TAG", "t-10"), "a prefix of the value");
    assertFalse(proc.carries(100, "JOB_TAG", "t-100"), "the end of a name");
    assertFalse(proc.carries(101, "A", "b"));
    assertTrue(proc.carries(101, "A", "=b"));
    assertFalse(proc.carries(103, "GQ_JOB_TAG", "t-100"), "a zombie's environment is empty");
    assertFalse(proc.carries(300, "GQ_JOB_TAG", "t-100"));
    assertFalse(proc.carries(999, "GQ_JOB_TAG", "t-100"));
  }

  @Test
  void valuesCarriedReadsEveryProcessOnceButTheOneLeftOut() throws IOException {
    String filler = "X=" + "y".repeat(20_000) + "\0";
    process(400, "big", 'S', 1, 400, 400, filler + "GQ_JOB_TAG=t-400\0");
    process(401, "big", 'S', 1, 401, 401, "MY_GQ_JOB_TAG=t-401\0GQ_JOB_TAGS=t-402\0");
    assertEquals(Set.of("t-100", "t-200", "t-400"), proc.valuesCarried("GQ_JOB_TAG", -1),
        "whole names only; past a first read's buffer; a zombie's and a vanished process's none");
    assertEquals(Set.of("t-100", "t-400"), proc.valuesCarried("GQ_JOB_TAG", 200), "the process left out");
    assertEquals(Set.of("=b"), proc.valuesCarried("A", -1));
    // the same as asking each process in turn
    for (String tag : List.of("t-100", "t-200", "t-400", "t-401"))
      assertEquals(proc.pids().stream().anyMatch(pid -> proc.carries(pid, "GQ_JOB_TAG", tag)),
          proc.valuesCarried("GQ_JOB_TAG", -1).contains(tag), tag);
  }

  @Test
  void carriesFindsAnEntryPastTheFirstReadsBuffer() throws IOException {
    String filler = "X=" + "y".repeat(20_000) + "\0";
    process(400, "big", 'S', 1, 400, 400, filler + "GQ_JOB_TAG=t-400\0");
    process(401, "big", 'S', 1, 401, 401, filler + "GQ_JOB_TAG=t-40");
    assertTrue(proc.carries(400, "GQ_JOB_TAG", "t-400"));
    assertFalse(proc.carries(401, "GQ_JOB_TAG", "t-400"), "cut short");
    assertTrue(proc.carries(401, "GQ_JOB_TAG", "t-40"), "the last entry, without its terminator");
  }

  @Test
  void environIsEmptyWhenAbsentOrUnreadable() {
    assertEquals(Optional.empty(), proc.environ(100, "GQ_JOB"));
    assertEquals(Optional.empty(), proc.environ(102, "GQ_JOB_TAG"));
    assertEquals(Optional.empty(), proc.environ(300, "GQ_JOB_TAG"));
    assertEquals(Optional.empty(), proc.environ(999, "GQ_JOB_TAG"));
  }

  @Test
  void openFilesAreWhereTheDescriptorsPoint() throws IOException {
    Path fd = Files.createDirectories(root.resolve("101/fd"));
    Files.createSymbolicLink(fd.resolve("1"), Path.of("/home/u/train.log"));
    Files.createSymbolicLink(fd.resolve("3"), Path.of("/run/lock/gq/GPU-1.lease"));
    assertEquals(List.of("/home/u/train.log", "/run/lock/gq/GPU-1.lease"), proc.openFiles(101).stream().sorted().toList());
    assertEquals(List.of(), proc.openFiles(999));
  }

  @Test
  void allListsNumericDirectoriesAndSkipsVanishedOnes() {
    List<Long> pids = proc.all().stream().map(ProcInfo::pid).sorted().toList();
    assertEquals(List.of(100L, 101L, 102L, 103L, 200L), pids);
  }

  @Test
  void membersAreTheLiveProcessesOfTheGroupOrSession() {
    List<Long> pids = proc.members(100, 100).stream().map(ProcInfo::pid).sorted().toList();
    assertEquals(List.of(100L, 101L, 102L), pids);
    assertEquals(List.of(), proc.members(555, 555));
  }

  @Test
  void bootIdIsReadAndStripped() {
    assertEquals("11111111-2222-3333-4444-555555555555", proc.bootId());
  }

  @Test
  void realProcShowsThisProcess() {
    ProcFs real = new ProcFs();
    long self = ProcessHandle.current().pid();
    ProcInfo info = real.info(self).orElseThrow();
    assertEquals(self, info.pid());
    assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), info.ppid());
    assertTrue(info.startTicks() > 0);
    assertEquals(Optional.ofNullable(System.getenv("PATH")), real.environ(self, "PATH"));
    assertTrue(real.all().stream().anyMatch(p -> p.pid() == self));
    assertTrue(real.bootId().matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"));
  }
}
