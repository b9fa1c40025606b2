package dev.gq.host.lease;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.GpuLeases;
import dev.gq.core.lease.LeaseHolder;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A name in the lease directory hard-linked to some other file (a user's notes) is no lease: gq
 * never truncates or writes it, whoever may remove the name (here this test's user, its owner)
 * removes it and makes a lease file of its own, and a hard-linked file a job holds locked still
 * counts as held. The other users' view is in {@link TwoUsersSharesTest}.
 */
class HardLinkedLeasesTest {
  private static final LeaseHolder.Instance A = new LeaseHolder.Instance(1001, "alice", "/home/alice/gq");
  private static final Map<String, Long> TOTAL = Map.of("GPU-a", 81920L);

  @TempDir Path tmp;
  Path dir;
  Path notes;
  LeaseFiles leases;

  @BeforeEach
  void start() throws Exception {
    dir = Files.createDirectory(tmp.resolve("leases"));
    Files.setAttribute(dir, "unix:mode", 01777);
    notes = Files.writeString(tmp.resolve("notes.txt"), "my notes\n");
    leases = LineBelievingOwners.leases(dir);
  }

  @Test
  void aLeaseNameHardLinkedToAnotherFileIsNeverWrittenAndItsRemoverTakesAFreshLease() throws Exception {
    Files.createLink(dir.resolve("GPU-a.lease"), notes);
    try (var held = leases.take(List.of("GPU-a"), new LeaseHolder(A, 1))) {
      assertEquals(GpuLease.held(new LeaseHolder(A, 1)), leases.read(List.of("GPU-a")).get("GPU-a"));
      assertEquals(1, (int) Files.getAttribute(dir.resolve("GPU-a.lease"), "unix:nlink", LinkOption.NOFOLLOW_LINKS));
    }
    assertEquals("my notes\n", Files.readString(notes), "the linked file was never written");
    assertEquals(1, (int) Files.getAttribute(notes, "unix:nlink"), "only the name in the lease directory was removed");
  }

  @Test
  void shareFilesAndTheShareLockHardLinkedToAnotherFileAreNeverWritten() throws Exception {
    Path other = Files.writeString(tmp.resolve("other.txt"), "more notes\n");
    Files.createLink(dir.resolve("GPU-a.share.0"), notes);
    Files.createLink(dir.resolve("GPU-a.share-lock"), other);
    try (var held = leases.takeShares(List.of("GPU-a"), new LeaseHolder(A, 2), 1024, TOTAL, 0, 0)) {
      assertEquals(GpuLease.State.SHARED, leases.read(List.of("GPU-a")).get("GPU-a").state());
    }
    assertEquals("my notes\n", Files.readString(notes));
    assertEquals("more notes\n", Files.readString(other));
  }

  @Test
  void aHeldLeaseGivenASecondNameStillCountsAsHeldAndIsNotTakenAgain() throws Exception {
    try (var held = leases.take(List.of("GPU-a"), new LeaseHolder(A, 3))) {
      Files.createLink(dir.resolve("planted"), dir.resolve("GPU-a.lease"));
      var other = LineBelievingOwners.leases(dir);
      assertEquals(GpuLease.held(new LeaseHolder(A, 3)), other.read(List.of("GPU-a")).get("GPU-a"));
      var e = assertThrows(GpuLeases.Taken.class, () -> other.take(List.of("GPU-a"), new LeaseHolder(A, 4)));
      assertTrue(e.getMessage().contains("alice's job 3"), e.getMessage());
      assertTrue(Files.isSameFile(dir.resolve("planted"), dir.resolve("GPU-a.lease")), "the held lease keeps its name");
    }
  }
}
