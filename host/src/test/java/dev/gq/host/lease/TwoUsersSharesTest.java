package dev.gq.host.lease;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two Unix users share one card through the machine-wide leases: this test's user (root) and a
 * second user made with useradd, whose {@link LeaseTaker} runs with runuser on the same lease
 * directory. Needs root; skipped with the reason elsewhere.
 */
class TwoUsersSharesTest {
  private static final String USER = "gq-e2e-other";
  private static final LeaseHolder.Instance ROOT = new LeaseHolder.Instance(0, "root", "/data/root");
  private static final Map<String, Long> TOTAL = Map.of("GPU-a", 81920L, "GPU-b", 81920L);

  @TempDir Path tmp;

  @Test
  void twoUsersSharesFitOnOneCardAndNeitherUserCanTakeItAlone() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become another user");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    int made = run("/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER);
    assertTrue(made == 0 || made == 9, "useradd " + USER + " failed: " + made); // 9: exists already
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path dir = tmp.resolve("leases");
    var mine = new LeaseFiles(dir);
    try (Other other = new Other(dir, readableClassPath(tmp.resolve("cp")));
        GpuLeases.Held a = mine.takeShares(List.of("GPU-a"), new LeaseHolder(ROOT, 1), 30720, TOTAL, 2048, 0)) {
      assertEquals("held", other.ask("share GPU-a 7 30720"), "the other user's share fits beside root's");
      GpuLease seen = mine.read(List.of("GPU-a")).get("GPU-a");
      assertEquals(GpuLease.State.SHARED, seen.state());
      assertEquals(List.of(new LeaseShare(new LeaseHolder(ROOT, 1), 30720),
          new LeaseShare(new LeaseHolder(new LeaseHolder.Instance(uid(), USER, "/data/" + USER), 7), 30720)), seen.shares());
      assertEquals(USER, Files.getOwner(dir.resolve("GPU-a.share.1")).getName(), "its share file is its own");
      assertEquals("SHARED | root's job 1 (30.0 GiB) | " + USER + "'s job 7 (30.0 GiB)", other.ask("read GPU-a"));

      String over = other.ask("share GPU-a 8 20480");
      assertTrue(over.startsWith("taken: GPU GPU-a cannot hold 20.0 GiB more plus 2.0 GiB of headroom: its shared jobs"
          + " declare 60.0 GiB of its 80.0 GiB"), over);
      var e = assertThrows(GpuLeases.Taken.class, () -> mine.take(List.of("GPU-a"), new LeaseHolder(ROOT, 2)));
      assertTrue(e.getMessage().contains("so it cannot be taken alone"), e.getMessage());
      String alone = other.ask("take GPU-a 9");
      assertTrue(alone.startsWith("taken: GPU GPU-a is shared by root's job 1 (30.0 GiB), " + USER + "'s job 7"), alone);

      // root's share file closed to others (made by hand): a share of root's may be in it, so it blocks
      Path closed = Files.writeString(dir.resolve("GPU-b.share.0"), "");
      Files.setPosixFilePermissions(closed, PosixFilePermissions.fromString("rw-------"));
      assertEquals(GpuLease.FREE, mine.read(List.of("GPU-b")).get("GPU-b"), "its owner sees it unlocked");
      String blocked = other.ask("read GPU-b");
      assertTrue(blocked.startsWith("BLOCKED | its share file " + closed + " is root's and closed to this user (mode 0600)"),
          blocked);
      assertTrue(other.ask("share GPU-b 10 1024").startsWith("taken: cannot take a share of GPU GPU-b: its share file"));

      assertEquals("closed", other.ask("close"));
      assertEquals(List.of(new LeaseShare(new LeaseHolder(ROOT, 1), 30720)),
          mine.read(List.of("GPU-a")).get("GPU-a").shares(), "the other user's share went with its close");
    }
    assertEquals(GpuLease.FREE, mine.read(List.of("GPU-a")).get("GPU-a"));
  }

  @Test
  void aShareOfAnotherUsersProcessIsDroppedByTheKernelWhenItEnds() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become another user");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    int made = run("/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER);
    assertTrue(made == 0 || made == 9, "useradd " + USER + " failed: " + made);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path dir = tmp.resolve("leases");
    var mine = new LeaseFiles(dir);
    Files.createDirectory(dir);
    Files.setAttribute(dir, "unix:mode", 01777); // as an admin makes it beforehand
    try (Other other = new Other(dir, readableClassPath(tmp.resolve("cp")))) {
      assertEquals("held", other.ask("share GPU-a 7 40960"));
      assertThrows(GpuLeases.Taken.class, () -> mine.take(List.of("GPU-a"), new LeaseHolder(ROOT, 2)));
      // SIGKILL to its java process: nothing of it gives the share back, only the kernel does
      List<ProcessHandle> java = other.process.descendants().filter(h -> h.info().command().orElse("").endsWith("/java")).toList();
      assertEquals(1, java.size(), "runuser's java process");
      java.get(0).destroyForcibly();
      assertTrue(other.process.waitFor(30, TimeUnit.SECONDS));
    }
    try (var whole = mine.take(List.of("GPU-a"), new LeaseHolder(ROOT, 2))) {
      assertEquals(GpuLease.held(new LeaseHolder(ROOT, 2)), mine.read(List.of("GPU-a")).get("GPU-a"));
    }
  }

  @Test
  void aLeaseNameHardLinkedToAUsersFileIsNeverWrittenAndBlocksOnlyThoseWhoCannotRemoveIt() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become another user");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    int made = run("/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", USER);
    assertTrue(made == 0 || made == 9, "useradd " + USER + " failed: " + made);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    Path dir = Files.createDirectory(tmp.resolve("leases"));
    Files.setAttribute(dir, "unix:mode", 01777);
    // the other user's notes, linked at a lease's name by someone else (root stands in for that user)
    Path notes = Files.writeString(tmp.resolve("notes.txt"), "the other user's notes\n");
    Files.setOwner(notes, tmp.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(USER));
    Files.setPosixFilePermissions(notes, PosixFilePermissions.fromString("rw-------"));
    Files.createLink(dir.resolve("GPU-a.lease"), notes);
    // root's file, writable by all, linked at another lease's name: the other user may not remove it
    Path rootFile = Files.writeString(tmp.resolve("root.txt"), "root's text\n");
    Files.setPosixFilePermissions(rootFile, PosixFilePermissions.fromString("rw-rw-rw-"));
    Path linked = Files.createLink(dir.resolve("GPU-b.lease"), rootFile);
    try (Other other = new Other(dir, readableClassPath(tmp.resolve("cp")))) {
      assertEquals("held", other.ask("take GPU-a 1"), "its owner removes the name and takes a lease file of its own");
      String blocked = other.ask("read GPU-b");
      assertEquals("BLOCKED | its lease file " + linked + " is a hard link (a file with 2 names) of root's, not a lease:"
          + " no gq of this user can lease the GPU until root removes it", blocked);
      String refused = other.ask("take GPU-b 2");
      assertTrue(refused.startsWith("taken: cannot take the GPU's machine-wide lease: its lease file " + linked
          + " is a hard link (a file with 2 names) of root's"), refused);
      assertEquals(USER, Files.getOwner(dir.resolve("GPU-a.lease")).getName());
    }
    assertEquals("the other user's notes\n", Files.readString(notes), "never truncated or written");
    assertEquals("root's text\n", Files.readString(rootFile), "never truncated or written");
  }

  /** The other user's {@link LeaseTaker}. */
  private static final class Other implements AutoCloseable {
    final Process process;
    final PrintWriter to;
    final BufferedReader from;
    final Path err;

    Other(Path dir, String classPath) throws Exception {
      Files.createDirectories(dir.getParent());
      List<String> cmd = new ArrayList<>(List.of("/usr/sbin/runuser", "-u", USER, "--",
          Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-native-access=ALL-UNNAMED",
          "-XX:+UseSerialGC", "-Xmx64m", "-XX:TieredStopAtLevel=1", "-Djna.tmpdir=" + dir.getParent().resolve("jna"),
          "-cp", classPath, LeaseTaker.class.getName(), dir.toString()));
      Path jna = Files.createDirectories(dir.getParent().resolve("jna"));
      Files.setPosixFilePermissions(jna, PosixFilePermissions.fromString("rwxrwxrwx"));
      err = dir.getParent().resolve("other.err");
      process = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
      to = new PrintWriter(process.getOutputStream(), true);
      from = new BufferedReader(new InputStreamReader(process.getInputStream()));
    }

    String ask(String command) throws Exception {
      to.println(command);
      String answer = from.readLine();
      assertNotNull(answer, "the other user's process ended before it answered " + command + ": " + Files.readString(err));
      return answer;
    }

    @Override
    public void close() throws Exception {
      to.close();
      if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
    }
  }

  private static int uid() throws Exception {
    Process p = new ProcessBuilder("id", "-u", USER).start();
    String out = new String(p.getInputStream().readAllBytes()).strip();
    p.waitFor();
    return Integer.parseInt(out);
  }

  /** The test's class path, with every entry the other user cannot read (under /root) copied into {@code dir}. */
  private static String readableClassPath(Path dir) throws Exception {
    Files.createDirectories(dir);
    List<String> out = new ArrayList<>();
    int n = 0;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (!p.toAbsolutePath().startsWith("/root") || !Files.isRegularFile(p)) {
        out.add(entry);
        continue;
      }
      Path copy = dir.resolve((n++) + "-" + p.getFileName());
      Files.copy(p, copy);
      out.add(copy.toString());
    }
    run("chmod", "-R", "a+rX", dir.toString());
    return String.join(File.pathSeparator, out);
  }

  private static int run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }
}
