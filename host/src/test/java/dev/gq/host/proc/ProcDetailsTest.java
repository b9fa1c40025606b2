package dev.gq.host.proc;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.proc.ProcInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What adopting a process reads from /proc, on a fixture tree: owner, argv, cwd, stdout, start. */
class ProcDetailsTest {
  @TempDir Path tmp;
  Path root;
  ProcFs proc;

  @BeforeEach
  void fixture() throws IOException {
    root = Files.createDirectories(tmp.resolve("proc"));
    Files.writeString(root.resolve("stat"), "cpu  1 2 3\nintr 5\nbtime 1764547200\nprocesses 9\n");
    Path p = Files.createDirectories(root.resolve("4242"));
    Files.write(p.resolve("cmdline"), "python\0train.py\0--name\0my run\0\0x\0".getBytes());
    Files.writeString(p.resolve("status"), "Name:\tpython\nUid:\t1000\t1000\t1000\t1000\nGid:\t1000\t1000\t1000\t1000\n");
    Path work = Files.createDirectories(tmp.resolve("work dir"));
    Files.createSymbolicLink(p.resolve("cwd"), work);
    Path out = Files.writeString(work.resolve("out.log"), "Step 1/10\n");
    Files.createDirectories(p.resolve("fd"));
    Files.createSymbolicLink(p.resolve("fd/1"), out);
    Path q = Files.createDirectories(root.resolve("4243"));
    Files.writeString(q.resolve("status"), "Uid:\t1000\t0\t0\t0\n");
    Files.createDirectories(q.resolve("fd"));
    Files.createSymbolicLink(q.resolve("fd/1"), Path.of("pipe:[12345]"));
    Files.write(q.resolve("cmdline"), new byte[0]);
    proc = new ProcFs(root);
  }

  @Test
  void argvIsSplitOnNulNeverOnSpaces() {
    assertEquals(List.of("python", "train.py", "--name", "my run", "", "x"), proc.cmdline(4242));
    assertEquals(List.of(), proc.cmdline(4243), "a kernel thread's is empty");
    assertEquals(List.of(), proc.cmdline(9999), "gone");
  }

  @Test
  void theOwnerIsTheRealUidOnlyWhenEffectiveAndSavedAgree() {
    assertEquals(1000, proc.uid(4242));
    assertEquals(-1, proc.uid(4243), "a set-uid program");
    assertEquals(-1, proc.uid(9999));
  }

  @Test
  void cwdAndAStdoutThatIsARegularFile() {
    assertEquals(Optional.of(tmp.resolve("work dir").toString()), proc.cwd(4242));
    assertEquals(Optional.of(tmp.resolve("work dir/out.log").toString()), proc.stdoutFile(4242));
    assertEquals(Optional.empty(), proc.stdoutFile(4243), "a pipe is no log");
    assertEquals(Optional.empty(), proc.cwd(9999));
  }

  @Test
  void aDeletedStdoutFileIsNoLog() throws IOException {
    Files.delete(tmp.resolve("work dir/out.log"));
    assertEquals(Optional.empty(), proc.stdoutFile(4242));
  }

  @Test
  void theStartTimeIsBootTimePlusTicks() {
    ProcInfo p = new ProcInfo(4242, 1, 4242, 4242, 12_345, 'S', "python");
    assertEquals(Optional.of(Instant.ofEpochSecond(1764547200L + 123).plusMillis(450)), proc.startTime(p));
  }
}
