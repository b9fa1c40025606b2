package dev.gq.host.lease;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who holds a lease is what the kernel says: the user of a live process that holds its lock, read
 * from /proc/locks, never the uid its line claims. Real locks taken by other processes (flock(1)).
 */
class KernelHoldersTest {
  private static final String FORGED = "gq-lease uid=4242 user=victim job=9 data=/z\n";

  @TempDir Path dir;
  private Process holder;

  @AfterEach
  void stop() {
    if (holder != null) holder.destroyForcibly();
  }

  private Path forgedLease() throws Exception {
    assumeTrue(new File("/usr/bin/flock").canExecute(), "needs flock(1)");
    Path leases = Files.createDirectories(dir.resolve("leases"));
    Path file = leases.resolve("GPU-a.lease");
    Files.writeString(file, FORGED);
    return file;
  }

  private GpuLease read() {
    return new LeaseFiles(dir.resolve("leases")).read(List.of("GPU-a")).get("GPU-a");
  }

  private void awaitHeld() throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (read().state() != GpuLease.State.HELD && System.nanoTime() < end) TimeUnit.MILLISECONDS.sleep(10);
  }

  @Test
  void aLeaseLockedByAnotherUsersLiveProcessIsChargedToThatUserWhateverItsLineClaims() throws Exception {
    Path file = forgedLease();
    holder = new ProcessBuilder("/usr/bin/flock", "-x", file.toString(), "sleep", "60").start();
    awaitHeld();
    GpuLease l = read();
    assertEquals(GpuLease.State.HELD, l.state());
    LeaseHolder h = l.holder();
    int me = LeaseLibc.C_LIB.geteuid();
    assertEquals(me, h.instance().uid(), "the uid of the process that holds the lock, not 4242: " + h);
    assertEquals(LeaseHolder.Basis.KERNEL, h.basis());
    assertTrue(h.counted());
    assertEquals("its line claims victim (uid 4242)", h.note());
  }

  @Test
  void aLeaseWhoseLockingProcessEndedIsShownAsItsLineSaysButChargedToNobody() throws Exception {
    Path file = forgedLease();
    // the flock process takes the lock and ends; the lock stays with the sleep that inherited it
    holder = new ProcessBuilder("sh", "-c", "exec 9<>" + file + "; /usr/bin/flock -x 9; exec sleep 60").start();
    awaitHeld();
    LeaseHolder h = read().holder();
    assertEquals(4242, h.instance().uid());
    assertEquals(LeaseHolder.Basis.LINE, h.basis());
    assertFalse(h.counted(), "no live process the kernel names confirms the line: " + h);
  }
}
