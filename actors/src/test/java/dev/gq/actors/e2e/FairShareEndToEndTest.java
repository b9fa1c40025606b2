package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared machine: three Unix users (made for the test with useradd), each with their own daemon
 * (run with runuser) on the same 4 fake GPUs, one lease directory and one machine policy file owned
 * by root. Each user talks to their own daemon through the real client. Needs root; skipped with
 * the reason elsewhere.
 */
class FairShareEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  private static final String[] USERS = {"gq-e2e-fair-a", "gq-e2e-fair-b", "gq-e2e-fair-c"};

  @TempDir Path tmp;
  private Path fake;
  private Path leases;
  private Path policy;
  private final List<Gqd> daemons = new ArrayList<>();
  private String classPath;
  /** The daemons' GPU reading interval when set (a real machine reads once a second; tests ten times). */
  private String pollMs;

  private static String timed(double seconds) {
    return "echo start $(date +%s%N); sleep " + seconds + "; echo end $(date +%s%N)";
  }

  @BeforeEach
  void machine() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become other users");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    for (String u : USERS) {
      OtherUser.make(u);
    }
    Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    // the machine: 4 fake GPUs everyone reads, a sticky lease directory everyone writes, root's policy
    new Gqd(tmp.resolve("machine"), 4, Map.of());
    fake = tmp.resolve("machine/fake");
    assertEquals(0, run("chmod", "-R", "a+rX", tmp.resolve("machine").toString()));
    leases = tmp.resolve("leases");
    Files.createDirectories(leases);
    assertEquals(0, run("chmod", "1777", leases.toString()));
    Files.createDirectories(tmp.resolve("etc"));
    policy = tmp.resolve("etc/policy.toml");
    classPath = TwoUsersEndToEndTest.readableClassPath(tmp.resolve("cp"));
  }

  @AfterEach
  void stop() throws Exception {
    for (Gqd g : daemons) g.close();
  }

  private OtherUser daemon(int i) throws Exception {
    return daemon(i, Map.of());
  }

  private OtherUser daemon(int i, Map<String, String> extra) throws Exception {
    String user = USERS[i];
    Map<String, String> env = new HashMap<>(extra);
    env.put("GQ_FAKE_NVML", fake.toString());
    env.put("GQ_LEASE_DIR", leases.toString());
    env.put("GQ_POLICY_FILE", policy.toString());
    if (pollMs != null) env.put("GQ_POLL_INTERVAL_MS", pollMs);
    Path root = tmp.resolve("u" + i);
    Gqd g = new Gqd(root, 0, env);
    g.wrapper = List.of("/usr/sbin/runuser", "-p", "-u", user, "--");
    g.classPath = classPath;
    Files.createDirectories(g.data);
    Files.createDirectories(g.run);
    assertEquals(0, run("chown", "-R", user, root.toString()));
    daemons.add(g);
    g.startDaemon();
    return new OtherUser(user, g);
  }

  /**
   * Four 1-GPU jobs of {@code a} that hold all 4 GPUs until {@code go} exists, started, then four
   * more of {@code seconds} each queued behind them; their ids in that order.
   */
  private static List<Long> sweepOnEveryGpu(OtherUser a, Path go, double seconds) throws Exception {
    String untilGo = "echo start $(date +%s%N); while [ ! -e " + go + " ]; do sleep 0.02; done; echo end $(date +%s%N)";
    List<Long> sweep = new ArrayList<>();
    for (int i = 0; i < 4; i++) sweep.add(a.submit("-g", "1", "bash", "-c", untilGo));
    for (int i = 0; i < 4; i++) sweep.add(a.submit("-g", "1", "bash", "-c", timed(seconds)));
    for (int i = 0; i < 4; i++) {
      long id = sweep.get(i);
      Gqd.await("the sweep's job " + id + " to start", T, () -> { try { return a.started(id); } catch (Exception e) { return false; } });
    }
    return sweep;
  }

  private void policy(String toml) throws Exception {
    Files.writeString(policy, toml);
    assertEquals(0, run("chmod", "0644", policy.toString()));
  }

  @Test
  void aSweepHoldsEveryGpuUntilAnotherUserWaitsThenTheNextTwoThatFreeUpAreTheirs() throws Exception {
    // a long fair turn: a GPU kept for the other user stays theirs however slow the machine is
    policy("max_gpus_per_user = 2\nfair_turn = \"30s\"\n");
    OtherUser a = daemon(0);
    OtherUser b = daemon(1);
    List<Long> sweep = new ArrayList<>();
    // the sweep's first four run on until the other user has asked (go), then free a GPU each
    Path go = tmp.resolve("go");
    double[] first = {2, 3, 12, 12};
    for (double s : first)
      sweep.add(a.submit("-g", "1", "bash", "-c", "echo start $(date +%s%N); while [ ! -e " + go + " ]; do sleep 0.02; done; sleep " + s
          + "; echo end $(date +%s%N)"));
    for (int i = 0; i < 6; i++) sweep.add(a.submit("-g", "1", "bash", "-c", timed(1)));
    for (int i = 0; i < 4; i++) {
      long id = sweep.get(i);
      Gqd.await("the sweep's job " + id + " to start", T, () -> { try { return a.started(id); } catch (Exception e) { return false; } });
    }
    long b1 = b.submit("-g", "1", "bash", "-c", timed(5));
    long b2 = b.submit("-g", "1", "bash", "-c", timed(5));
    Files.writeString(go, "");
    long[] sb1 = b.span(b1), sb2 = b.span(b2);
    long[] a5 = a.span(sweep.get(4));
    long bothStarted = Math.max(sb1[0], sb2[0]);
    assertTrue(a5[0] > bothStarted, "the sweep's 5th job started before both of the other user's jobs had: "
        + a5[0] + " vs " + bothStarted + "\n" + a.gqd().daemonLog());
    // the other user's jobs ran to their end: nothing stopped them, nothing took their GPUs back
    assertTrue(sb1[1] - sb1[0] >= 4_900_000_000L && sb2[1] - sb2[0] >= 4_900_000_000L);
    // while both ran, the sweep held at most its share of 2
    long mid = bothStarted + 500_000_000L;
    int aAt = 0;
    for (long id : sweep) {
      long[] s = a.span(id);
      if (s[0] <= mid && s[1] >= mid) aAt++;
    }
    assertTrue(aAt <= 2, "the sweep ran " + aAt + " jobs at once beside the other user's two");
  }

  @Test
  void aDemandWrittenJustBeforeGpusFreeUpIsSeenWhenTheyAreHandedOut() throws Exception {
    policy("max_gpus_per_user = 2\nfair_turn = \"5s\"\n");
    pollMs = "1000";
    OtherUser a = daemon(0);
    OtherUser b = daemon(1);
    Path go = tmp.resolve("go");
    List<Long> sweep = sweepOnEveryGpu(a, go, 3);
    // the other user's submit returns, and at once every GPU frees up: no GPU reading in between
    long b1 = b.submit("-g", "1", "bash", "-c", timed(3));
    long returned = System.nanoTime();
    Gqd.await("the sweep's gq to see " + USERS[1] + " wait", T, () -> {
      try {
        for (JsonNode u : a.who().get("users")) if (u.get("user").asText().equals(USERS[1]) && u.get("gpus_wanted").asInt() == 1) return true;
        return false;
      } catch (Exception e) {
        return false;
      }
    });
    long seenMs = (System.nanoTime() - returned) / 1_000_000;
    System.out.println("demand seen after ms: " + seenMs);
    // its GPU readings come once a second: seen sooner, the demand was read when it was written
    assertTrue(seenMs < 500, "the other user's demand reached the sweep's gq " + seenMs + " ms after the submit returned");
    Files.writeString(go, "");
    long[] sb1 = b.span(b1);
    List<Long> aStarts = new ArrayList<>();
    for (long id : sweep.subList(4, 8)) aStarts.add(a.span(id)[0]);
    long aHeldAtB = aStarts.stream().filter(t -> t < sb1[0]).count();
    assertTrue(aHeldAtB <= 2, "the sweep took " + aHeldAtB + " of the freed GPUs before the other user's job started"
        + " (the fair share is 2)\n" + a.gqd().daemonLog());
  }

  @Test
  void aJobReservedAndNotYetLaunchedStillCountsAsItsUsersDemand() throws Exception {
    // the other user's launches take their leases 3 s after the reservation: a window in which no
    // lease says those GPUs are taken, and only the demand file says the user wants them
    policy("max_gpus_per_user = 2\nfair_turn = \"30s\"\n");
    OtherUser a = daemon(0);
    OtherUser b = daemon(1, Map.of("GQ_TEST_LAUNCH_DELAY_MS", "3000"));
    Path go = tmp.resolve("go");
    List<Long> sweep = sweepOnEveryGpu(a, go, 10);
    long b1 = b.submit("-g", "1", "bash", "-c", timed(1));
    long b2 = b.submit("-g", "1", "bash", "-c", timed(1));
    Files.writeString(go, "");
    long bothStarted = Math.max(b.span(b1)[0], b.span(b2)[0]);
    List<Long> aStarts = new ArrayList<>();
    for (long id : sweep.subList(4, 8)) aStarts.add(a.startedAt(id));
    long aBefore = aStarts.stream().filter(t -> t < bothStarted).count();
    assertTrue(aBefore <= 2, "the sweep took " + aBefore + " of the freed GPUs before the other user's two jobs had started"
        + " (the fair share is 2)\n" + b.gqd().daemonLog() + "\n" + a.gqd().daemonLog());
  }

  @Test
  void aUserAloneUsesEveryGpuAndSeesThePolicyInWho() throws Exception {
    policy("max_gpus_per_user = 2\nfair_turn = \"5s\"\n");
    OtherUser a = daemon(0);
    OtherUser b = daemon(1);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) ids.add(a.submit("-g", "1", "bash", "-c", timed(5)));
    Gqd.await("four jobs to start", T, () -> {
      try {
        for (long id : ids) if (!a.started(id)) return false;
        return true;
      } catch (Exception e) {
        return false;
      }
    });
    // the other user, with nothing of their own, sees this one's part under gq gpu's table
    String line = USERS[0] + "  4 GPUs held, 4 jobs running, 0 waiting";
    Gqd.await("the other user's gq gpu to show " + line, T, () -> {
      try {
        return b.gq("gpu").out().contains(line);
      } catch (Exception e) {
        return false;
      }
    });
    String gpu = b.gq("gpu").out();
    assertTrue(gpu.contains("\nEveryone on this machine (gq who):\n") && gpu.contains("\nPolicy: at most 2 GPUs per user while others wait"), gpu);
    JsonNode who = a.who();
    assertTrue(who.get("policy_in_force").asBoolean(), who.toString());
    assertTrue(who.get("policy").asText().contains("at most 2 GPUs per user while others wait"), who.toString());
    List<long[]> spans = new ArrayList<>();
    for (long id : ids) spans.add(a.span(id));
    long lastStart = spans.stream().mapToLong(s -> s[0]).max().orElseThrow();
    assertTrue(spans.stream().allMatch(s -> s[1] > lastStart), "alone, all four ran at once: " + spans);
  }

  @Test
  void aPolicyFileOthersCanWriteIsRefusedAndFixingItTakesEffect() throws Exception {
    policy("max_gpus_per_user_always = 1\n");
    assertEquals(0, run("chmod", "0666", policy.toString()));
    OtherUser a = daemon(0);
    Gqd.Result status = a.gq("daemon", "status");
    assertTrue(status.out().contains("Policy:    the policy file " + policy + " is writable by others"), status.toString());
    long j1 = a.submit("-g", "1", "bash", "-c", timed(2));
    long j2 = a.submit("-g", "1", "bash", "-c", timed(2));
    long[] s1 = a.span(j1), s2 = a.span(j2);
    assertTrue(s1[0] < s2[1] && s2[0] < s1[1], "the refused file's limit of 1 GPU was applied");
    assertEquals(0, run("chmod", "0644", policy.toString()));
    Gqd.await("the fixed policy to be in force", T, () -> {
      try {
        return a.who().get("policy_in_force").asBoolean();
      } catch (Exception e) {
        return false;
      }
    });
    long j3 = a.submit("-g", "1", "bash", "-c", timed(2));
    long j4 = a.submit("-g", "1", "bash", "-c", timed(2));
    long[] s3 = a.span(j3), s4 = a.span(j4);
    assertTrue(s4[0] >= s3[1], "with the policy in force, one GPU at a time");
  }

  @Test
  void aKilledDaemonsDemandStopsCounting() throws Exception {
    policy("max_gpus_per_user = 2\nfair_turn = \"5s\"\n");
    OtherUser a = daemon(0);
    OtherUser c = daemon(2);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) ids.add(a.submit("-g", "1", "bash", "-c", timed(30)));
    Gqd.await("four jobs to start", T, () -> {
      try {
        for (long id : ids) if (!a.started(id)) return false;
        return true;
      } catch (Exception e) {
        return false;
      }
    });
    c.submit("-g", "2", "true");
    Gqd.await(USERS[2] + "'s wait to show in " + USERS[0] + "'s gq who", T, () -> {
      try {
        for (JsonNode u : a.who().get("users"))
          if (u.get("user").asText().equals(USERS[2]) && u.get("gpus_wanted").asInt() == 2) return true;
        return false;
      } catch (Exception e) {
        return false;
      }
    });
    JsonNode aRow = a.who().get("users").get(0);
    assertEquals(USERS[0], aRow.get("user").asText());
    assertEquals(4, aRow.get("gpus_held").asInt(), "held GPUs come from the leases");
    // the daemon itself, not the runuser above it: as a crash would
    long pid = 0;
    try (var files = Files.list(leases)) {
      for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".demand")).toList())
        for (String line : Files.readString(f).lines().toList())
          if (Files.getOwner(f).getName().equals(USERS[2]) && line.startsWith("pid=")) pid = Long.parseLong(line.substring(4));
    }
    assertTrue(pid > 0, "no demand file of " + USERS[2]);
    assertEquals(0, run("kill", "-9", Long.toString(pid)));
    Gqd.await("the killed daemon's demand to stop counting", T, () -> {
      try {
        JsonNode who = a.who();
        for (JsonNode u : who.get("users")) if (u.get("user").asText().equals(USERS[2])) return false;
        return who.get("not_counted").toString().contains("has ended");
      } catch (Exception e) {
        return false;
      }
    });
  }

  @Test
  void aBookingKeepsItsGpusFreeOfAJobWithoutTimeAndHandsThemToTheBookerAtItsStart() throws Exception {
    OtherUser a = daemon(0);
    OtherUser b = daemon(1);
    Gqd.Result booked = b.gq("book", "--gpu", "0,1", "--at", "8s", "--for", "10m");
    assertEquals(0, booked.code(), booked.toString());
    java.time.Instant start = java.time.Instant.now().plusSeconds(7);
    String id = booked.out().substring(booked.out().indexOf("booking ") + 8).split(";")[0];
    Gqd.Result list = a.gq("book", "--list");
    assertTrue(list.out().contains(id) && list.out().contains(USERS[1]), "every user sees the booking: " + list);
    // the other daemon plans with the booking from its next reading on
    Gqd.await("the booking in " + USERS[0] + "'s daemon's view", T, () -> {
      try {
        return a.who().get("bookings").toString().contains(id);
      } catch (Exception e) {
        return false;
      }
    });
    List<Long> ofA = new ArrayList<>();
    for (int i = 0; i < 4; i++) ofA.add(a.submit("-g", "1", "bash", "-c", timed(20)));
    Gqd.await("two of the jobs to start", T, () -> {
      try {
        return a.started(ofA.get(0)) && a.started(ofA.get(1));
      } catch (Exception e) {
        return false;
      }
    });
    Gqd.Result show = a.gq("show", Long.toString(ofA.get(2)));
    assertTrue(show.out().contains("booked by " + USERS[1]), show + "\n" + a.gq("gpu") + "\n" + a.gq("who") + "\n" + a.gqd().daemonLog());
    Gqd.Result cancelOther = a.gq("book", "--cancel", id);
    assertEquals(1, cancelOther.code());
    assertTrue(cancelOther.err().contains("booking " + id + " is " + USERS[1] + "'s"), cancelOther.toString());
    Gqd.await("the window to start", T, () -> !java.time.Instant.now().isBefore(start.plusSeconds(1)));
    long b1 = b.submit("-g", "1", "bash", "-c", timed(1));
    long b2 = b.submit("-g", "1", "bash", "-c", timed(1));
    long[] s1 = b.span(b1), s2 = b.span(b2);
    assertTrue(s1[1] > 0 && s2[1] > 0);
    assertFalse(a.started(ofA.get(2)) || a.started(ofA.get(3)), "a job without --time started on a booked GPU");
    assertEquals(0, b.gq("book", "--cancel", id).code());
  }

  private static int run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }
}
