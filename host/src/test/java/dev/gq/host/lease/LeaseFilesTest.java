package dev.gq.host.lease;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.host.TestJobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaseFilesTest {

  private static final LeaseHolder.Instance A = new LeaseHolder.Instance(1001, "alice", "/home/alice/gq");
  private static final LeaseHolder.Instance B = new LeaseHolder.Instance(1002, "bob", "/home/bob/gq");

  @TempDir Path dir;
  TestJobs jobs;
  LeaseFiles leases;

  @BeforeEach
  void start() {
    jobs = new TestJobs(dir);
    leases = LineBelievingOwners.leases(dir.resolve("leases"));
  }

  @AfterEach
  void stop() {
    jobs.close();
  }

  @Test
  void aLeaseNeverTakenIsFreeAndTakingOneMakesAStickyDirectoryForEveryone() throws Exception {
    assertEquals(GpuLease.FREE, leases.read(List.of("GPU-a")).get("GPU-a"));
    try (GpuLeases.Held held = leases.take(List.of("GPU-a"), new LeaseHolder(A, 1))) {
      assertEquals(1, held.fds().size());
    }
    assertEquals(01777, (int) Files.getAttribute(dir.resolve("leases"), "unix:mode") & 07777);
    assertEquals(0666, (int) Files.getAttribute(dir.resolve("leases/GPU-a.lease"), "unix:mode") & 0777);
  }

  @Test
  void aHeldLeaseNamesItsHolderToEveryReaderAndCannotBeTakenTwice() throws Exception {
    var other = LineBelievingOwners.leases(dir.resolve("leases"));
    try (GpuLeases.Held held = leases.take(List.of("GPU-a", "GPU-b"), new LeaseHolder(A, 12))) {
      Map<String, GpuLease> seen = other.read(List.of("GPU-a", "GPU-b", "GPU-c"));
      assertEquals(GpuLease.held(new LeaseHolder(A, 12)), seen.get("GPU-a"));
      assertEquals(GpuLease.held(new LeaseHolder(A, 12)), seen.get("GPU-b"));
      assertEquals(GpuLease.FREE, seen.get("GPU-c"));
      var e = assertThrows(GpuLeases.Taken.class, () -> other.take(List.of("GPU-c", "GPU-b"), new LeaseHolder(B, 3)));
      assertTrue(e.getMessage().contains("alice's job 12"), e.getMessage());
      // all or none: the lease of GPU-c, taken first, was given back
      assertEquals(GpuLease.FREE, other.read(List.of("GPU-c")).get("GPU-c"));
    }
    assertEquals(GpuLease.FREE, other.read(List.of("GPU-a")).get("GPU-a"));
    try (var again = other.take(List.of("GPU-a"), new LeaseHolder(B, 3))) {
      assertEquals(GpuLease.held(new LeaseHolder(B, 3)), leases.read(List.of("GPU-a")).get("GPU-a"));
    }
  }

  @Test
  void aLaunchedJobKeepsItsLeaseAfterTheDaemonLetsGoUntilItsLastProcessEnds() throws Exception {
    LaunchSpec plain = jobs.spec("sh", "-c", "sleep 30 & echo started; wait");
    LaunchSpec spec;
    LaunchedProcess job;
    try (GpuLeases.Held held = leases.take(List.of("GPU-a"), new LeaseHolder(A, 7))) {
      spec = new LaunchSpec(plain.jobId(), plain.argv(), plain.cwd(), plain.env(), plain.logFile(), plain.exitFile(),
          held.fds());
      job = jobs.launch(spec);
    }
    TestJobs.await("the job to start", Duration.ofSeconds(10), () -> read(spec.logFile()).contains("started"));
    assertEquals(GpuLease.State.HELD, leases.read(List.of("GPU-a")).get("GPU-a").state(), "the daemon closed its copy");
    // "started" is printed once the background child is forked, maybe before it has become sleep
    String sid = String.valueOf(job.identity().sid());
    TestJobs.await("the job's sleep to run", Duration.ofSeconds(10), () -> !pgrep(sid).isEmpty());
    long sleeper = Long.parseLong(pgrep(sid));
    assertTrue(Files.readSymbolicLink(Path.of("/proc/" + sleeper + "/fd/3")).toString().endsWith("GPU-a.lease"),
        "the job's processes hold the lease as descriptor 3");
    TestJobs.killQuietly(sleeper);
    job.shimExited().get(10, TimeUnit.SECONDS);
    TestJobs.await("the lease to be free", Duration.ofSeconds(10),
        () -> leases.read(List.of("GPU-a")).get("GPU-a").equals(GpuLease.FREE));
    assertEquals("exit 0", Files.readString(spec.exitFile()).lines().findFirst().orElseThrow());
  }

  @Test
  void aJobWithoutLeasesStillGetsNoOtherDescriptor() throws Exception {
    LaunchSpec spec = jobs.spec("sh", "-c", "ls /proc/self/fd");
    assertEquals(ExitRecord.exited(0), jobs.run(spec));
    assertEquals(List.of("0", "1", "2", "3"), read(spec.logFile()).lines().sorted().toList(), "3 is ls's own listing");
  }

  @Test
  void aLeaseDirectoryOthersMayWriteButNotStickyIsRefused() throws Exception {
    Path bad = Files.createDirectory(dir.resolve("open"));
    Files.setAttribute(bad, "unix:mode", 0777);
    var open = LineBelievingOwners.leases(bad);
    assertEquals(GpuLease.State.UNREADABLE, open.read(List.of("GPU-a")).get("GPU-a").state());
    var e = assertThrows(GpuLeases.Taken.class, () -> open.take(List.of("GPU-a"), new LeaseHolder(A, 1)));
    assertTrue(e.getMessage().contains("chmod 1777 " + bad), e.getMessage());
  }

  @Test
  void aLinkInPlaceOfALeaseIsNoLeaseAndWhoMayRemoveItTakesTheLeaseWithoutFollowingIt() throws Exception {
    Files.createDirectory(dir.resolve("leases"));
    Files.setAttribute(dir.resolve("leases"), "unix:mode", 01777);
    Path target = Files.writeString(dir.resolve("target"), "x");
    Files.createSymbolicLink(dir.resolve("leases/GPU-a.lease"), target);
    // this user made the link (or is root): it may remove it, so the GPU is free to it
    assertEquals(GpuLease.FREE, leases.read(List.of("GPU-a")).get("GPU-a"));
    try (var held = leases.take(List.of("GPU-a"), new LeaseHolder(A, 1))) {
      assertTrue(Files.isRegularFile(dir.resolve("leases/GPU-a.lease"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
      assertEquals(GpuLease.held(new LeaseHolder(A, 1)), leases.read(List.of("GPU-a")).get("GPU-a"));
    }
    assertEquals("x", Files.readString(target), "the link's target was never written");
  }

  @Test
  void aNamedPipeInPlaceOfALeaseIsNeverLocked() throws Exception {
    Files.createDirectory(dir.resolve("leases"));
    Files.setAttribute(dir.resolve("leases"), "unix:mode", 01777);
    assertEquals(0, new ProcessBuilder("mkfifo", dir.resolve("leases/GPU-a.lease").toString()).start().waitFor());
    assertEquals(GpuLease.FREE, leases.read(List.of("GPU-a")).get("GPU-a"));
    try (var held = leases.take(List.of("GPU-a"), new LeaseHolder(A, 1))) {
      assertTrue(Files.isRegularFile(dir.resolve("leases/GPU-a.lease"), java.nio.file.LinkOption.NOFOLLOW_LINKS));
    }
  }

  @Test
  void aDirectoryInPlaceOfALeaseBlocksTheGpuAndIsNeverRemoved() throws Exception {
    Files.createDirectory(dir.resolve("leases"));
    Files.setAttribute(dir.resolve("leases"), "unix:mode", 01777);
    Path planted = Files.createDirectory(dir.resolve("leases/GPU-a.lease"));
    Files.writeString(planted.resolve("inside"), "x");
    GpuLease l = leases.read(List.of("GPU-a")).get("GPU-a");
    assertEquals(GpuLease.State.BLOCKED, l.state());
    assertTrue(l.error().contains("is a directory of "), l.error());
    var e = assertThrows(GpuLeases.Taken.class, () -> leases.take(List.of("GPU-a"), new LeaseHolder(A, 1)));
    assertTrue(e.getMessage().contains("not a lease"), e.getMessage());
    assertEquals("x", Files.readString(planted.resolve("inside")));
  }

  @Test
  void aMissingLeaseThisUserCouldNotMakeIsUnreadableNotFree() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "");
    var under = LineBelievingOwners.leases(file.resolve("leases"));
    GpuLease l = under.read(List.of("GPU-a")).get("GPU-a");
    assertEquals(GpuLease.State.UNREADABLE, l.state());
    assertTrue(l.error().contains(file + " is not a directory; set GQ_LEASE_DIR"), l.error());

    Path locked = Files.createDirectory(dir.resolve("locked"));
    lockDown(locked, true);
    try {
      var missing = LineBelievingOwners.leases(locked.resolve("leases"));
      l = missing.read(List.of("GPU-a", "GPU-b")).get("GPU-b");
      assertEquals(GpuLease.State.UNREADABLE, l.state());
      assertTrue(l.error().startsWith("cannot make the lease directory " + locked.resolve("leases") + ": " + locked
          + " is not writable by this user ("), l.error());
      var inside = LineBelievingOwners.leases(locked);
      l = inside.read(List.of("GPU-a")).get("GPU-a");
      assertTrue(l.error().startsWith("the lease directory " + locked + " is not writable by this user ("), l.error());
      assertThrows(GpuLeases.Taken.class, () -> inside.take(List.of("GPU-a"), new LeaseHolder(A, 1)));
      try (var none = missing.take(List.of(), new LeaseHolder(A, 2))) {
        assertEquals(List.of(), none.fds(), "a CPU-only job needs no lease directory");
      }
    } finally {
      lockDown(locked, false);
    }
  }

  /** Makes {@code d} unwritable in a way root respects too (immutable), or writable again. */
  static void lockDown(Path d, boolean on) throws Exception {
    if ("root".equals(System.getProperty("user.name"))) {
      int rc = new ProcessBuilder("chattr", on ? "+i" : "-i", d.toString()).start().waitFor();
      org.junit.jupiter.api.Assumptions.assumeTrue(rc == 0 || !on, "needs a file system that knows chattr +i");
    } else {
      Files.setAttribute(d, "unix:mode", on ? 0555 : 0755);
    }
  }

  @Test
  void aUuidWithOddCharactersGetsASafeFileName() {
    Path f = leases.file("../../etc/passwd");
    assertEquals(dir.resolve("leases"), f.getParent());
    assertTrue(f.getFileName().toString().matches("gpu-[0-9a-f]{32}\\.lease"), f.toString());
    assertEquals(dir.resolve("leases/GPU-1b2c.lease"), leases.file("GPU-1b2c"));
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** The pid of the process named sleep in session {@code sid}; empty when there is none. */
  private static String pgrep(String sid) {
    try {
      return run("pgrep", "-s", sid, "-x", "sleep").strip();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static String run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    p.waitFor();
    return out;
  }
}
