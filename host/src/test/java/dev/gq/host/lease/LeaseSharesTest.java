package dev.gq.host.lease;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.launch.LaunchSpec;
import dev.gq.core.launch.LaunchedProcess;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import dev.gq.host.TestJobs;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shares of the machine-wide leases on real files and real locks. Each {@link LeaseFiles} opens its
 * own files, so two of them in this JVM hold locks against each other as two gq would.
 */
class LeaseSharesTest {

  private static final LeaseHolder.Instance A = new LeaseHolder.Instance(1001, "alice", "/home/alice/gq");
  private static final LeaseHolder.Instance B = new LeaseHolder.Instance(1002, "bob", "/home/bob/gq");
  private static final long CARD = 81920;
  private static final Map<String, Long> TOTAL = Map.of("GPU-a", CARD, "GPU-b", CARD);

  @TempDir Path dir;
  TestJobs jobs;
  LeaseFiles alice;
  LeaseFiles bob;

  @BeforeEach
  void start() {
    jobs = new TestJobs(dir);
    alice = LineBelievingOwners.leases(dir.resolve("leases"));
    bob = LineBelievingOwners.leases(dir.resolve("leases"));
  }

  @AfterEach
  void stop() {
    jobs.close();
  }

  private static LeaseShare share(LeaseHolder.Instance who, long job, long mib) {
    return new LeaseShare(new LeaseHolder(who, job), mib);
  }

  private GpuLeases.Held shareOf(LeaseFiles l, LeaseHolder.Instance who, long job, long mib) throws GpuLeases.Taken {
    return l.takeShares(List.of("GPU-a"), new LeaseHolder(who, job), mib, TOTAL, 2048, 0);
  }

  private GpuLease lease(LeaseFiles l) {
    return l.read(List.of("GPU-a")).get("GPU-a");
  }

  @Test
  void twoHoldersSharesFitTogetherAndEveryReaderListsThemWithTheirMemory() throws Exception {
    try (var a = shareOf(alice, A, 1, 20480); var b = shareOf(bob, B, 2, 30720)) {
      assertEquals(2, a.fds().size(), "the lease file and its share file");
      GpuLease seen = lease(LineBelievingOwners.leases(dir.resolve("leases")));
      assertEquals(GpuLease.State.SHARED, seen.state());
      assertEquals(List.of(share(A, 1, 20480), share(B, 2, 30720)), seen.shares());
      assertEquals(GpuLease.FREE, alice.read(List.of("GPU-b")).get("GPU-b"));
      assertEquals(0666, (int) Files.getAttribute(dir.resolve("leases/GPU-a.share.1"), "unix:mode") & 0777);
      assertEquals(0666, (int) Files.getAttribute(dir.resolve("leases/GPU-a.share-lock"), "unix:mode") & 0777);
    }
    assertEquals(GpuLease.FREE, lease(alice), "both released: the share files left behind count for nothing");
    assertTrue(Files.exists(dir.resolve("leases/GPU-a.share.0")), "share files are never deleted");
  }

  @Test
  void aShareThatWouldNotFitBesideTheOthersIsRefusedNamingThem() throws Exception {
    try (var a = shareOf(alice, A, 1, 40960); var b = shareOf(bob, B, 2, 20480)) {
      var e = assertThrows(GpuLeases.Taken.class, () -> shareOf(bob, B, 3, 20480));
      assertEquals("GPU GPU-a cannot hold 20.0 GiB more plus 2.0 GiB of headroom: its shared jobs declare 60.0 GiB of"
          + " its 80.0 GiB (alice's job 1 (40.0 GiB), bob's job 2 (20.0 GiB))", e.getMessage());
      try (var fits = shareOf(bob, B, 4, 81920 - 61440 - 2048)) {
        assertEquals(3, lease(alice).shares().size());
      }
      var capped = assertThrows(GpuLeases.Taken.class,
          () -> bob.takeShares(List.of("GPU-a"), new LeaseHolder(B, 5), 1024, TOTAL, 0, 2));
      assertTrue(capped.getMessage().contains("already has 2 shared jobs"), capped.getMessage());
    }
  }

  @Test
  void anExclusiveLeaseAndSharesKeepEachOtherOff() throws Exception {
    try (var a = shareOf(alice, A, 1, 20480)) {
      var e = assertThrows(GpuLeases.Taken.class, () -> bob.take(List.of("GPU-a"), new LeaseHolder(B, 2)));
      assertEquals("GPU GPU-a is shared by alice's job 1 (20.0 GiB), so it cannot be taken alone", e.getMessage());
    }
    try (var whole = bob.take(List.of("GPU-a"), new LeaseHolder(B, 2))) {
      var e = assertThrows(GpuLeases.Taken.class, () -> shareOf(alice, A, 3, 1024));
      assertEquals("GPU GPU-a is held by bob's job 2 alone, so it cannot be shared", e.getMessage());
      assertEquals(GpuLease.held(new LeaseHolder(B, 2)), lease(alice));
    }
    try (var a = shareOf(alice, A, 3, 1024)) {
      assertEquals(GpuLease.shared(List.of(share(A, 3, 1024))), lease(bob));
    }
  }

  @Test
  void sharesOfSeveralGpusAreTakenAllOrNone() throws Exception {
    try (var whole = bob.take(List.of("GPU-b"), new LeaseHolder(B, 2))) {
      assertThrows(GpuLeases.Taken.class,
          () -> alice.takeShares(List.of("GPU-a", "GPU-b"), new LeaseHolder(A, 1), 1024, TOTAL, 0, 0));
      assertEquals(GpuLease.FREE, lease(bob), "the share of GPU-a, taken first, was given back");
    }
    try (var both = alice.takeShares(List.of("GPU-a", "GPU-b"), new LeaseHolder(A, 1), 1024, TOTAL, 0, 0)) {
      assertEquals(4, both.fds().size());
      Map<String, GpuLease> seen = bob.read(List.of("GPU-a", "GPU-b"));
      assertEquals(GpuLease.State.SHARED, seen.get("GPU-a").state());
      assertEquals(GpuLease.State.SHARED, seen.get("GPU-b").state());
    }
    var e = assertThrows(GpuLeases.Taken.class,
        () -> alice.takeShares(List.of("GPU-c"), new LeaseHolder(A, 1), 1024, TOTAL, 0, 0));
    assertEquals("GPU GPU-c's memory is not known, so no share of it can be taken", e.getMessage());
  }

  @Test
  void concurrentTakersNeverPutMoreOnACardThanItHolds() throws Exception {
    int takers = 8;
    ExecutorService pool = Executors.newFixedThreadPool(takers);
    List<GpuLeases.Held> held = java.util.Collections.synchronizedList(new ArrayList<>());
    try {
      for (int round = 0; round < 5; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<String>> outcomes = new ArrayList<>();
        for (int i = 0; i < takers; i++) {
          long job = round * 100L + i + 1;
          boolean exclusive = i == takers - 1 && round % 2 == 1;
          outcomes.add(pool.submit(() -> {
            go.await();
            var mine = LineBelievingOwners.leases(dir.resolve("leases"));
            try {
              held.add(exclusive ? mine.take(List.of("GPU-a"), new LeaseHolder(A, job))
                  : mine.takeShares(List.of("GPU-a"), new LeaseHolder(A, job), 20480, TOTAL, 0, 0));
              return exclusive ? "whole" : "share";
            } catch (GpuLeases.Taken e) {
              return e.getMessage();
            }
          }));
        }
        go.countDown();
        List<String> got = new ArrayList<>();
        for (Future<String> f : outcomes) got.add(f.get(60, TimeUnit.SECONDS));
        long shares = got.stream().filter("share"::equals).count();
        long wholes = got.stream().filter("whole"::equals).count();
        assertTrue(wholes == 0 ? shares == 4 : shares == 0, "round " + round + ": " + got);
        for (String g : got)
          assertTrue(g.equals("share") || g.equals("whole") || g.contains("cannot hold") || g.contains("alone")
              || g.contains("taken for sharing"),
              "round " + round + ": " + g);
        GpuLease l = lease(alice);
        assertEquals(wholes == 1 ? GpuLease.State.HELD : GpuLease.State.SHARED, l.state(), got.toString());
        assertEquals(shares, l.shares().size());
        held.forEach(GpuLeases.Held::close);
        held.clear();
      }
    } finally {
      pool.shutdownNow();
      held.forEach(GpuLeases.Held::close);
    }
  }

  @Test
  void aLaunchedSharedJobKeepsItsShareUntilItsLastProcessEnds() throws Exception {
    LaunchSpec plain = jobs.spec("sh", "-c", "sleep 30 & echo started; wait");
    LaunchSpec spec;
    LaunchedProcess job;
    try (GpuLeases.Held held = shareOf(alice, A, 7, 20480)) {
      spec = new LaunchSpec(plain.jobId(), plain.argv(), plain.cwd(), plain.env(), plain.logFile(), plain.exitFile(),
          held.fds());
      job = jobs.launch(spec);
    }
    TestJobs.await("the job to start", Duration.ofSeconds(10), () -> read(spec.logFile()).contains("started"));
    assertEquals(GpuLease.shared(List.of(share(A, 7, 20480))), lease(bob), "the daemon closed its copies");
    assertThrows(GpuLeases.Taken.class, () -> bob.take(List.of("GPU-a"), new LeaseHolder(B, 1)));
    // "started" is printed once the background child is forked, maybe before it has become sleep
    String sid = String.valueOf(job.identity().sid());
    TestJobs.await("the job's sleep to run", Duration.ofSeconds(10), () -> !pgrep(sid).isEmpty());
    long sleeper = Long.parseLong(pgrep(sid));
    assertTrue(Files.readSymbolicLink(Path.of("/proc/" + sleeper + "/fd/3")).toString().endsWith("GPU-a.lease"));
    assertTrue(Files.readSymbolicLink(Path.of("/proc/" + sleeper + "/fd/4")).toString().endsWith("GPU-a.share.0"));
    TestJobs.killQuietly(sleeper);
    job.shimExited().get(10, TimeUnit.SECONDS);
    TestJobs.await("the share to be dropped", Duration.ofSeconds(10), () -> lease(bob).equals(GpuLease.FREE));
    try (var whole = bob.take(List.of("GPU-a"), new LeaseHolder(B, 1))) {
      assertEquals(GpuLease.held(new LeaseHolder(B, 1)), lease(alice));
    }
  }

  @Test
  void aShareFileWhoseLineCannotBeReadCountsAsTheWholeCard() throws Exception {
    try (var a = shareOf(alice, A, 1, 1024)) {
      Files.writeString(dir.resolve("leases/GPU-a.share.0"), "something else\n");
      assertEquals(GpuLease.shared(List.of(LeaseShare.unknown())), lease(bob));
      var e = assertThrows(GpuLeases.Taken.class, () -> shareOf(bob, B, 2, 1024));
      assertTrue(e.getMessage().contains("declare all of its 80.0 GiB"), e.getMessage());
    }
  }

  @Test
  void namesAtShareFilesThatAreNoFilesAreNeverFollowedAndHoldNoShare() throws Exception {
    Path leases = Files.createDirectory(dir.resolve("leases"));
    Files.setAttribute(leases, "unix:mode", 01777);
    Path target = Files.writeString(dir.resolve("target"), "x");
    Files.createSymbolicLink(leases.resolve("GPU-a.share.0"), target);
    Path planted = Files.createDirectory(leases.resolve("GPU-a.share.1"));
    Files.createSymbolicLink(leases.resolve("GPU-a.share-lock"), target);
    assertEquals(0, new ProcessBuilder("mkfifo", leases.resolve("GPU-a.share.2").toString()).start().waitFor());
    assertEquals(GpuLease.FREE, lease(bob), "no share is held through a link, a directory or a pipe");
    try (var a = shareOf(alice, A, 1, 1024)) {
      // this user made the link and the pipe: it may remove them and takes their places; never the directory
      assertTrue(Files.isRegularFile(leases.resolve("GPU-a.share-lock"), LinkOption.NOFOLLOW_LINKS));
      assertTrue(Files.isRegularFile(leases.resolve("GPU-a.share.0"), LinkOption.NOFOLLOW_LINKS));
      assertTrue(Files.isDirectory(planted, LinkOption.NOFOLLOW_LINKS));
      try (var b = shareOf(bob, B, 2, 1024)) {
        assertTrue(Files.isRegularFile(leases.resolve("GPU-a.share.2"), LinkOption.NOFOLLOW_LINKS), "the pipe's place");
        assertEquals(List.of(share(A, 1, 1024), share(B, 2, 1024)), lease(bob).shares());
      }
    }
    assertEquals("x", Files.readString(target), "the link's target was never written");
  }

  @Test
  void aShareLockHeldByAnotherProcessKeepsNewSharesOffButNotReaders() throws Exception {
    try (var a = shareOf(alice, A, 1, 1024)) {
      int lock = LeaseLibc.openForLock(dir.resolve("leases/GPU-a.share-lock"));
      try {
        assertTrue(LeaseLibc.tryLock(lock, LeaseLibc.LOCK_EX));
        assertEquals(GpuLease.shared(List.of(share(A, 1, 1024))), lease(bob));
        var e = assertThrows(GpuLeases.Taken.class, () -> shareOf(bob, B, 2, 1024));
        assertTrue(e.getMessage().contains("share lock") && e.getMessage().contains("stayed held by another process"),
            e.getMessage());
      } finally {
        LeaseLibc.closeQuietly(lock);
      }
      try (var b = shareOf(bob, B, 2, 1024)) {
        assertEquals(2, lease(alice).shares().size());
      }
    }
  }

  @Test
  void aLeaseDirectoryThisUserCannotWriteRefusesSharesSayingSoButKeepsItsLeases() throws Exception {
    try (var once = alice.take(List.of("GPU-a"), new LeaseHolder(A, 1))) {
      assertEquals(1, once.fds().size(), "the lease file is made while the directory is writable");
    }
    Path leases = dir.resolve("leases");
    LeaseFilesTest.lockDown(leases, true);
    try {
      var e = assertThrows(GpuLeases.Taken.class, () -> shareOf(bob, B, 2, 1024));
      assertTrue(e.getMessage().startsWith("cannot take a share of GPU GPU-a: the lease directory " + leases
          + " is not writable by this user ("), e.getMessage());
      try (var whole = bob.take(List.of("GPU-a"), new LeaseHolder(B, 3))) {
        assertEquals(GpuLease.held(new LeaseHolder(B, 3)), lease(alice));
      }
    } finally {
      LeaseFilesTest.lockDown(leases, false);
    }
  }

  @Test
  void noLeasesTakeSharesAsTheyTakeLeases() throws Exception {
    try (var none = GpuLeases.NONE.takeShares(List.of("GPU-a"), new LeaseHolder(A, 1), 1024, TOTAL, 0, 0)) {
      assertEquals(List.of(), none.fds());
    }
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
