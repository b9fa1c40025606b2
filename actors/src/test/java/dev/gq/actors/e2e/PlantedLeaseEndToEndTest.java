package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files another user plants in the shared lease directory make no GPU UNKNOWN: a lease is a locked
 * regular file, so a link or a file nobody locks is none. Root's gq (here the first daemon) uses
 * the GPUs behind the second user's planted files, removing the link; to the second user's gq
 * (another Unix user, made with useradd and run with runuser), root's link and root's file closed
 * to others keep their GPUs out, as EXTERNAL naming root, and its jobs run on the other GPUs.
 * Needs root; skipped with the reason elsewhere.
 */
class PlantedLeaseEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);
  private static final String USER = "gq-e2e-other";

  @TempDir Path tmp;

  @Test
  void filesPlantedInTheLeaseDirectoryBlockOnlyThoseWhoCannotClearThemAndNeverMakeAGpuUnknown() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become another user");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    OtherUser.make(USER);
    Files.setPosixFilePermissions(tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    Files.setAttribute(leases, "unix:mode", 01777);
    Path target = Files.writeString(tmp.resolve("target"), "x");
    // the second user plants a file closed to others on GPU 0 and a link on GPU 1; root plants both on GPUs 2 and 3
    assertEquals(0, run("/usr/sbin/runuser", "-u", USER, "--", "sh", "-c", "umask 077; touch " + lease(leases, 0)
        + "; ln -s " + target + " " + lease(leases, 1)));
    assertEquals(0, run("sh", "-c", "umask 077; touch " + lease(leases, 2) + "; ln -s " + target + " " + lease(leases, 3)));

    Map<String, String> env = Map.of("GQ_LEASE_DIR", leases.toString());
    try (Gqd a = Gqd.start(tmp.resolve("a"), 4, env)) {
      Path fake = tmp.resolve("a/fake");
      for (int i = 0; i < 4; i++) assertEquals("FREE", a.gpuState(i), "root's gq: " + a.gpus());
      long all = a.submit("-g", "4", "true");
      a.awaitState(all, "DONE", T);
      assertTrue(Files.isRegularFile(lease(leases, 1), LinkOption.NOFOLLOW_LINKS), "root's gq took GPU 1's lease in place of the link");
      assertEquals("x", Files.readString(target));
      Files.delete(lease(leases, 2));
      Files.delete(lease(leases, 3));
      assertEquals(0, run("sh", "-c", "umask 077; touch " + lease(leases, 2) + "; ln -s " + target + " " + lease(leases, 3)));

      Map<String, String> envB = new java.util.HashMap<>(env);
      envB.put("GQ_FAKE_NVML", fake.toString());
      try (Gqd b = new Gqd(tmp.resolve("b"), 4, envB)) {
        b.wrapper = List.of("/usr/sbin/runuser", "-p", "-u", USER, "--");
        b.classPath = TwoUsersEndToEndTest.readableClassPath(tmp.resolve("cp"));
        Files.createDirectories(b.data);
        Files.createDirectories(b.run);
        assertEquals(0, run("chown", "-R", USER, tmp.resolve("b").toString()));
        assertEquals(0, run("chmod", "0755", tmp.resolve("a").toString(), fake.toString()));
        b.startDaemon();
        Gqd.await("the second user's gq to read the GPUs", T, () -> asUser(b, "gpu", "--json").startsWith("["));
        JsonNode gpus = Gqd.JSON.readTree(asUser(b, "gpu", "--json"));
        assertEquals("FREE", gpus.get(0).get("state").asText(), gpus.toString());
        assertEquals("FREE", gpus.get(1).get("state").asText(), gpus.toString());
        for (int i = 2; i < 4; i++) {
          JsonNode g = gpus.get(i);
          assertEquals("EXTERNAL", g.get("state").asText(), g.toString());
          assertTrue(g.get("detail").asText().startsWith("its lease file " + lease(leases, i) + " is "), g.toString());
          assertTrue(g.get("detail").asText().endsWith("until root removes it"), g.toString());
        }
        assertTrue(gpus.get(2).get("detail").asText().contains("root's and closed to this user (mode 0600)"), gpus.toString());
        assertTrue(gpus.get(3).get("detail").asText().contains("a symbolic link of root's, not a lease"), gpus.toString());
        assertFalse(asUser(b, "daemon", "status").contains("Leases:"), "no lease is unreadable to the second user");
        String out = asUser(b, "-g", "2", "true");
        assertTrue(out.contains("job 1"), out);
        Gqd.await("the second user's job to end", T, () -> asUser(b, "show", "1").contains("DONE"));
        JsonNode job = Gqd.JSON.readTree(asUser(b, "show", "1", "--json"));
        assertEquals("[0,1]", job.get("gpu_indices").toString(), job.toString());
      }
    }
  }

  private static Path lease(Path dir, int i) {
    return dir.resolve(Gqd.uuid(i) + ".lease");
  }

  /** The real gq client as the other user, in {@code g}'s environment: its stdout and stderr. */
  private static String asUser(Gqd g, String... args) {
    List<String> cmd = new ArrayList<>(List.of("/usr/sbin/runuser", "-p", "-u", USER, "--", NativeClient.binary().toString()));
    cmd.addAll(List.of(args));
    try {
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(g.work.toFile()).redirectErrorStream(true);
      pb.environment().clear();
      pb.environment().putAll(g.env());
      pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes());
      p.waitFor();
      return out;
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static int run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }
}
