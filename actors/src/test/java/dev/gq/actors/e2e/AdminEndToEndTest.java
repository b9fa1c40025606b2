package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin's levers on a shared machine: three Unix users (made with useradd), each with their own
 * daemon (runuser) on the same 4 fake GPUs, one sticky lease directory and a root-owned policy that
 * names the first user an admin. An admin's drain keeps a GPU from every user's gq, a drain file
 * written by anybody else keeps it from nobody's, and an admin removes another user's booking.
 * Needs root; skipped with the reason elsewhere.
 */
class AdminEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  private static final String[] USERS = {"gq-e2e-adm-a", "gq-e2e-adm-b", "gq-e2e-adm-c"};

  @TempDir Path tmp;
  private Path fake;
  private Path leases;
  private final List<Gqd> daemons = new ArrayList<>();
  private String classPath;

  @BeforeEach
  void machine() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become other users");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(), "needs runuser and useradd");
    for (String u : USERS) {
      OtherUser.make(u);
    }
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    new Gqd(tmp.resolve("machine"), 4, Map.of());
    fake = tmp.resolve("machine/fake");
    assertEquals(0, run("chmod", "-R", "a+rX", tmp.resolve("machine").toString()));
    leases = tmp.resolve("leases");
    Files.createDirectories(leases);
    assertEquals(0, run("chmod", "1777", leases.toString()));
    Files.createDirectories(tmp.resolve("etc"));
    Files.writeString(tmp.resolve("etc/policy.toml"), "admins = [\"" + USERS[0] + "\"]\n");
    assertEquals(0, run("chmod", "0644", tmp.resolve("etc/policy.toml").toString()));
    classPath = TwoUsersEndToEndTest.readableClassPath(tmp.resolve("cp"));
  }

  @AfterEach
  void stop() throws Exception {
    for (Gqd g : daemons) g.close();
  }

  private OtherUser daemon(int i) throws Exception {
    Map<String, String> env = new HashMap<>(Map.of("GQ_FAKE_NVML", fake.toString(), "GQ_LEASE_DIR", leases.toString(),
        "GQ_POLICY_FILE", tmp.resolve("etc/policy.toml").toString(), "GQ_POLL_INTERVAL_MS", "200"));
    Path root = tmp.resolve("u" + i);
    Gqd g = new Gqd(root, 0, env);
    g.wrapper = List.of("/usr/sbin/runuser", "-p", "-u", USERS[i], "--");
    g.classPath = classPath;
    Files.createDirectories(g.data);
    Files.createDirectories(g.run);
    assertEquals(0, run("chown", "-R", USERS[i], root.toString()));
    daemons.add(g);
    g.startDaemon();
    return new OtherUser(USERS[i], g);
  }

  @Test
  void anAdminsDrainHoldsAGpuAgainstEveryUsersGqAndAnybodyElsesDrainFileDoesNot() throws Exception {
    OtherUser admin = daemon(0);
    OtherUser bob = daemon(1);
    OtherUser eve = daemon(2);
    Gqd.Result drained = admin.gq("gpu", "drain", "0", "--all-users", "--reason", "maintenance");
    assertEquals(0, drained.code(), drained.toString());
    assertTrue(drained.out().startsWith("GPU 0 drained for every user's gq"), drained.toString());
    Gqd.Result refused = eve.gq("gpu", "drain", "1", "--all-users");
    assertEquals(1, refused.code(), refused.toString());
    assertTrue(refused.err().contains("only root and the policy's admins can drain GPU 1 for every user"), refused.toString());
    // eve's order written by hand, naming the admin as its author: its owner is eve, so it counts for nothing
    Path forged = leases.resolve("admin-0-0123456789abcdef.admin");
    Files.writeString(forged, "gq-admin 1\ndrain=" + Gqd.uuid(1) + "\nreason=by " + USERS[0] + "\n");
    assertEquals(0, run("chown", USERS[2], forged.toString()));
    Gqd.await("bob's gq to see the drain and not count eve's file", T, () -> {
      String who = quiet(bob, "who");
      return who.contains("Drained: GPU 0 drained for every user's gq by " + USERS[0]) && who.contains("Not counted: " + forged.getFileName());
    });
    List<Long> jobs = new ArrayList<>();
    for (int i = 0; i < 4; i++) jobs.add(bob.submit("-g", "1", "bash", "-c", "echo start $CUDA_VISIBLE_DEVICES; sleep 30"));
    for (int i = 0; i < 3; i++) bob.startedAt(jobs.get(i));
    for (int i = 0; i < 3; i++) assertFalse(Files.readString(bob.gqd().data.resolve("logs/" + jobs.get(i) + ".log")).contains("start 0"),
        "a job of bob's started on the GPU the admin drained");
    assertFalse(bob.started(jobs.get(3)), "the fourth job waits while GPU 0 is drained for everyone");
    Gqd.Result resumed = admin.gq("gpu", "resume", "0", "--all-users");
    assertEquals("GPU 0 resumed for every user's gq\n", resumed.out(), resumed.toString());
    bob.startedAt(jobs.get(3));
    assertTrue(Files.readString(bob.gqd().data.resolve("logs/" + jobs.get(3) + ".log")).contains("start 0"));
    for (long id : jobs) bob.gq("cancel", Long.toString(id));
  }

  @Test
  void anAdminRemovesAnotherUsersBookingForEveryUsersGq() throws Exception {
    OtherUser admin = daemon(0);
    OtherUser bob = daemon(1);
    OtherUser eve = daemon(2);
    Gqd.Result booked = bob.gq("book", "--gpu", "0,1", "--at", "1h", "--for", "2h");
    assertEquals(0, booked.code(), booked.toString());
    String id = booked.out().substring(booked.out().indexOf("booking ") + 8).split(";")[0];
    Gqd.Result notEve = eve.gq("book", "--cancel", id);
    assertEquals(1, notEve.code(), notEve.toString());
    assertTrue(notEve.err().contains("only " + USERS[1] + ", root or an admin"), notEve.toString());
    assertTrue(quiet(admin, "book", "--list").contains(id), "the admin sees the booking first");
    Gqd.Result cancelled = admin.gq("book", "--cancel", id);
    assertEquals(0, cancelled.code(), cancelled.toString());
    assertEquals("Cancelled booking " + id + " of " + USERS[1] + "'s for every user's gq (as an admin).\n", cancelled.out());
    assertFalse(quiet(eve, "book", "--list").contains(id), "no gq counts a booking an admin cancelled");
    Gqd.await("the booker's gq to remove the file and the admin's gq its order", T, () -> {
      try (Stream<Path> files = Files.list(leases)) {
        return files.map(p -> p.getFileName().toString()).noneMatch(n -> n.endsWith(".booking") || n.endsWith(".admin"));
      } catch (Exception e) {
        return false;
      }
    });
  }

  private static String quiet(OtherUser u, String... args) {
    try {
      return u.gq(args).out();
    } catch (Exception e) {
      return "";
    }
  }

  private static int run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }
}
