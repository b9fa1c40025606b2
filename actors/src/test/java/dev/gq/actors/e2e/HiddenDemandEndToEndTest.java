package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nobody can hide another user's demand: a third Unix user makes files, before the first user's
 * daemon starts, at the names that daemon's demand file could have (the name earlier versions gave
 * it, from its data directory, and many random ones); the first user's jobs wait on a GPU an outside
 * process holds, and the second user's gq still sees them wait. Users made with useradd, daemons
 * run with runuser. Needs root; skipped with the reason elsewhere.
 */
class HiddenDemandEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);
  private static final String[] USERS = {"gq-e2e-fair-a", "gq-e2e-fair-b", "gq-e2e-fair-c"};

  @TempDir Path tmp;

  @Test
  void filesMadeAheadAtADaemonsPossibleDemandNamesDoNotHideItsUsersWait() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become other users");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(),
        "needs runuser and useradd");
    for (String u : USERS) {
      OtherUser.make(u);
    }
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    new Gqd(tmp.resolve("machine"), 1, Map.of());
    Path fake = tmp.resolve("machine/fake");
    // an outside process holds the one GPU: every job of the first user waits
    Files.writeString(fake.resolve("procs/" + Gqd.uuid(0) + "/4194000"), "ghost");
    assertEquals(0, run("chmod", "-R", "a+rX", tmp.resolve("machine").toString()));
    Path leases = Files.createDirectory(tmp.resolve("leases"));
    Files.setAttribute(leases, "unix:mode", 01777);
    String classPath = TwoUsersEndToEndTest.readableClassPath(tmp.resolve("cp"));
    Map<String, String> env = Map.of("GQ_FAKE_NVML", fake.toString(), "GQ_LEASE_DIR", leases.toString(),
        "GQ_POLICY_FILE", tmp.resolve("no-policy.toml").toString());
    try (Gqd victim = tenant(0, env, classPath); Gqd observer = tenant(1, env, classPath)) {
      int uid = uid(USERS[0]);
      String old = oldName(uid, victim.data.toAbsolutePath().toString());
      StringBuilder names = new StringBuilder(old);
      for (int i = 0; i < 64; i++) names.append(' ').append(String.format("demand-%d-%016x.demand", uid, (long) i * 0x0101010101010101L));
      assertEquals(0, run("/usr/sbin/runuser", "-u", USERS[2], "--", "sh", "-c", "cd " + leases + " && touch " + names));
      victim.startDaemon();
      observer.startDaemon();
      Gqd.Result submitted = gq(USERS[0], victim, "run", "-g", "1", "true");
      assertEquals(0, submitted.code(), submitted.toString());
      Gqd.await("the second user's gq to see the first user wait", T, () -> waiting(observer));
      String status = gq(USERS[0], victim, "daemon", "status").out();
      assertFalse(status.contains("Demand:"), status);
      JsonNode who = Gqd.JSON.readTree(gq(USERS[1], observer, "who", "--json").out());
      assertTrue(who.get("not_counted").has(old), "the file at the old name is listed, not counted: " + who);
    }
  }

  /** Whether {@code observer}'s gq who shows the first user with one job waiting. */
  private static boolean waiting(Gqd observer) {
    try {
      for (JsonNode u : Gqd.JSON.readTree(gq(USERS[1], observer, "who", "--json").out()).get("users"))
        if (u.get("user").asText().equals(USERS[0]) && u.get("jobs_waiting").asInt() == 1) return true;
      return false;
    } catch (Exception e) {
      return false;
    }
  }

  /** The name earlier versions gave a daemon's demand file: its uid and a digest of its data directory. */
  private static String oldName(int uid, String dataDir) throws Exception {
    byte[] d = MessageDigest.getInstance("SHA-256").digest(dataDir.getBytes(StandardCharsets.UTF_8));
    return "demand-" + uid + "-" + HexFormat.of().formatHex(d, 0, 8) + ".demand";
  }

  private Gqd tenant(int i, Map<String, String> env, String classPath) throws Exception {
    Path root = tmp.resolve("u" + i);
    Gqd g = new Gqd(root, 0, env);
    g.wrapper = List.of("/usr/sbin/runuser", "-p", "-u", USERS[i], "--");
    g.classPath = classPath;
    Files.createDirectories(g.data);
    Files.createDirectories(g.run);
    assertEquals(0, run("chown", "-R", USERS[i], root.toString()));
    return g;
  }

  /** The real gq client as {@code user}, in {@code g}'s environment. */
  private static Gqd.Result gq(String user, Gqd g, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/usr/sbin/runuser", "-p", "-u", user, "--", NativeClient.binary().toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(g.work.toFile());
    pb.environment().clear();
    pb.environment().putAll(g.env());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Path out = Files.createTempFile(g.root, "out", ".txt");
    Path err = Files.createTempFile(g.root, "err", ".txt");
    int code = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start().waitFor();
    return new Gqd.Result(code, Files.readString(out), Files.readString(err));
  }

  private static int uid(String user) throws Exception {
    Process p = new ProcessBuilder("id", "-u", user).start();
    String out = new String(p.getInputStream().readAllBytes()).strip();
    p.waitFor();
    return Integer.parseInt(out);
  }

  private static int run(String... argv) throws Exception {
    Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    return p.waitFor();
  }
}
