package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gq.core.gpu.MemoryText;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two users' gq on one machine never run two jobs on one GPU at a time, and their shared jobs share
 * one card within its memory: the second daemon runs as another Unix user (made for the test with
 * useradd, run with runuser), on the same fake GPU.
 * Needs root; skipped with the reason elsewhere.
 */
class TwoUsersEndToEndTest {
  private static final Duration T = Duration.ofSeconds(120);
  private static final String USER = "gq-e2e-other";
  private static final String TIMED = "echo start $(date +%s%N); sleep 0.4; echo end $(date +%s%N)";

  @TempDir Path tmp;

  private record Span(String who, long start, long end) {}

  @Test
  void burstsToTwoUsersDaemonsOnOneGpuNeverOverlap() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become another user");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    OtherUser.make(USER);
    Map<String, String> slow = Map.of("GQ_TEST_LAUNCH_DELAY_MS", "300");
    Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    try (Gqd a = Gqd.start(tmp.resolve("a"), 1, slow)) {
      Path fake = tmp.resolve("a/fake");
      Map<String, String> envB = new java.util.HashMap<>(slow);
      envB.put("GQ_FAKE_NVML", fake.toString());
      try (Gqd b = new Gqd(tmp.resolve("b"), 1, envB)) {
        b.wrapper = List.of("/usr/sbin/runuser", "-p", "-u", USER, "--");
        b.classPath = readableClassPath(tmp.resolve("cp"));
        Files.createDirectories(b.data);
        Files.createDirectories(b.run);
        assertEquals(0, run("chown", "-R", USER, tmp.resolve("b").toString()));
        assertEquals(0, run("chmod", "0755", tmp.resolve("a").toString(), fake.toString()));
        b.startDaemon();
        // a daemon serves only its own user: the other user's jobs go through the real client as that user
        Path batch = tmp.resolve("b/jobs");
        Files.writeString(batch, ("bash -c '" + TIMED + "'\n").repeat(3));
        List<Long> ofA = new ArrayList<>();
        for (int i = 0; i < 3; i++) ofA.add(a.submit("-g", "1", "bash", "-c", TIMED));
        assertEquals(0, clientAs(b, "submit", "--batch", batch.toString(), "-g", "1"));
        List<Span> spans = new ArrayList<>();
        for (long id : ofA) spans.add(span("root/" + id, a, id));
        assertEquals(0, clientAs(b, "wait", "1-3", "--timeout", "120s"));
        for (long id = 1; id <= 3; id++) spans.add(span(USER + "/" + id, Files.readString(b.data.resolve("logs/" + id + ".log"))));
        spans.sort(Comparator.comparingLong(Span::start));
        for (int i = 1; i < spans.size(); i++)
          assertTrue(spans.get(i).start() > spans.get(i - 1).end(),
              "two jobs on GPU 0 at once: " + spans.get(i - 1) + " and " + spans.get(i) + "\nall: " + spans);
        assertEquals(USER, Files.getOwner(b.data.resolve("logs/1.log")).getName(), "the second daemon's jobs ran as " + USER);
      }
    }
  }

  @Test
  void twoUsersSharedJobsShareOneCardAndAnExclusiveJobWaitsForItToEmpty() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become another user");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    OtherUser.make(USER);
    Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    // each job opens a 1000 MiB "context" on its GPU, notes that it runs, and runs until ./stop exists
    String job = "for u in ${GQ_GPU_UUIDS//,/ }; do echo 1000 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done;"
        + " touch running-$GQ_JOB_ID; while [ ! -e stop ]; do sleep 0.1; done";
    try (Gqd a = Gqd.start(tmp.resolve("a"), 1)) {
      Path fake = tmp.resolve("a/fake");
      try (Gqd b = new Gqd(tmp.resolve("b"), 1, Map.of("GQ_FAKE_NVML", fake.toString()))) {
        b.wrapper = List.of("/usr/sbin/runuser", "-p", "-u", USER, "--");
        b.classPath = readableClassPath(tmp.resolve("cp"));
        Files.createDirectories(b.data);
        Files.createDirectories(b.run);
        assertEquals(0, run("chown", "-R", USER, tmp.resolve("b").toString()));
        assertEquals(0, run("chmod", "0755", tmp.resolve("a").toString(), fake.toString()));
        assertEquals(0, run("chmod", "1777", fake.resolve("procs/" + Gqd.uuid(0)).toString()));
        b.startDaemon();
        long a1 = a.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", job);
        long a2 = a.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", job);
        Path batch = tmp.resolve("b/jobs");
        Files.writeString(batch, ("bash -c '" + job.replace("'", "'\\''") + "'\n").repeat(2));
        assertEquals(0, clientAs(b, "submit", "--batch", batch.toString(), "-g", "1", "--share", "--vram", "20G"));
        a.awaitState(a1, "RUNNING", T);
        a.awaitState(a2, "RUNNING", T);
        Gqd.await(USER + "'s two shared jobs to run", T,
            () -> Files.exists(b.work.resolve("running-1")) && Files.exists(b.work.resolve("running-2")));

        // each user's gq shows the other's shares; the other user's processes are its jobs', not outside ones
        Gqd.await("root's gq to show " + USER + "'s shares", T, () -> a.gq("gpu").out().contains(USER + "'s job 1 (18.6G), " + USER
            + "'s job 2 (18.6G)"));
        assertEquals("SHARED", a.gpuState(0));
        Gqd.await(USER + "'s gq to show root's shares", T, () -> {
          String out = clientOut(b, "gpu");
          return out.contains("SHARED") && out.contains("root's job " + a1 + " (18.6G), root's job " + a2 + " (18.6G)");
        });
        long left = 81920 - 1024 - 4 * 19074;
        long fifth = a.submit("-g", "1", "--share", "--vram", "20G", "bash", "-c", job);
        a.awaitWaitReason(fifth, "needs 18.6 GiB on a shared GPU: GPU 0 has " + MemoryText.words(left) + " left");
        long exclusive = a.submit("-g", "1", "bash", "-c", "echo \"$CUDA_VISIBLE_DEVICES\" > excl");
        a.awaitWaitReason(exclusive, "shared by jobs " + a1 + ", " + a2 + " and " + USER + "'s job 1, " + USER + "'s job 2");
        assertEquals(0, clientAs(b, "run", "-g", "1", "true"));
        Gqd.await(USER + "'s exclusive job to wait for the shares", T,
            () -> clientOut(b, "show", "3").contains("shared by jobs 1, 2 and root's job " + a1));

        // root's shared jobs end; the exclusive job waits on for the other user's
        Files.writeString(a.work.resolve("stop"), "");
        a.awaitState(a1, "DONE", T);
        a.awaitState(a2, "DONE", T);
        a.awaitState(fifth, "DONE", T);
        a.awaitWaitReason(exclusive, "needs 1 GPU, 0 free (GPU 0: shared by " + USER + "'s job 1, " + USER + "'s job 2)");
        Files.writeString(b.work.resolve("stop"), "");
        a.awaitState(exclusive, "DONE", T);
        assertEquals("0", Files.readString(a.work.resolve("excl")).strip());
        assertEquals(0, clientAs(b, "wait", "1-3", "--timeout", "120s"));
      }
    }
  }

  /** What the real gq client prints, run as the other user in {@code g}'s environment. */
  private static String clientOut(Gqd g, String... args) {
    try {
      Path out = g.root.resolve("client.out");
      Files.deleteIfExists(out);
      clientAs(g, args);
      return Files.exists(out) ? Files.readString(out) : "";
    } catch (Exception e) {
      return "";
    }
  }

  private static Span span(String who, Gqd g, long id) throws Exception {
    g.awaitState(id, "DONE", T);
    return span(who, Jobs.log(g, id));
  }

  private static Span span(String who, String log) {
    long start = 0, end = 0;
    for (String line : log.lines().toList()) {
      if (line.startsWith("start ")) start = Long.parseLong(line.substring(6).strip());
      if (line.startsWith("end ")) end = Long.parseLong(line.substring(4).strip());
    }
    assertTrue(start > 0 && end > 0, who + ": no start or end in its log: " + log);
    return new Span(who, start, end);
  }

  /** The test's class path, with every entry the other user cannot read (under /root) copied into {@code dir}. */
  static String readableClassPath(Path dir) throws Exception {
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

  /** Runs the real gq client as the other user, in {@code g}'s environment; its exit code. */
  private static int clientAs(Gqd g, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/usr/sbin/runuser", "-p", "-u", USER, "--",
        NativeClient.binary().toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(g.work.toFile());
    pb.environment().clear();
    pb.environment().putAll(g.env());
    Path out = g.root.resolve("client.out");
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile()));
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    int code = pb.start().waitFor();
    if (code != 0) System.err.println("gq " + String.join(" ", args) + " as " + USER + ": " + Files.readString(out));
    return code;
  }

  private static int run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }
}
