package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Another Unix user's daemon ({@code gqd}, run with runuser) and the real client run as that user. */
record OtherUser(String user, Gqd gqd) {
  private static final Duration T = Duration.ofSeconds(60);

  /**
   * Makes the system user {@code user} (no home, no shell) unless it exists. Test JVMs running at
   * once may call useradd together; one that finds the password file locked by another tries again.
   */
  static void make(String user) throws Exception {
    long until = System.nanoTime() + T.toNanos();
    while (true) {
      Process p = new ProcessBuilder("/usr/sbin/useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user)
          .redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      int code = p.waitFor();
      if (code == 0 || code == 9) return; // 9: the user exists already
      boolean locked = out.contains("lock");
      if (!locked || System.nanoTime() > until) throw new AssertionError("useradd " + user + " failed (" + code + "): " + out);
      Thread.sleep(100);
    }
  }

  Gqd.Result gq(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of("/usr/sbin/runuser", "-p", "-u", user, "--", NativeClient.binary().toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(gqd.work.toFile());
    pb.environment().clear();
    pb.environment().putAll(gqd.env());
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    Path out = Files.createTempFile(gqd.root, "out", ".txt");
    Path err = Files.createTempFile(gqd.root, "err", ".txt");
    pb.redirectOutput(out.toFile()).redirectError(err.toFile());
    int code = pb.start().waitFor();
    return new Gqd.Result(code, Files.readString(out), Files.readString(err));
  }

  long submit(String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("run"));
    all.addAll(List.of(args));
    Gqd.Result r = gq(all.toArray(String[]::new));
    assertEquals(0, r.code(), user + ": submit failed: " + r);
    String s = r.out().strip();
    return Long.parseLong(s.substring(s.lastIndexOf(' ') + 1));
  }

  /** Whether job {@code id} wrote its start line ({@code start NANOS}) to its log. */
  boolean started(long id) {
    try {
      Path log = gqd.data.resolve("logs/" + id + ".log");
      return Files.exists(log) && Files.readString(log).contains("start ");
    } catch (Exception e) {
      return false;
    }
  }

  /** When job {@code id} started (ns since the epoch, as it wrote), once it has. */
  long startedAt(long id) throws Exception {
    Gqd.await(user + "'s job " + id + " to start", T, () -> started(id));
    for (String line : Files.readString(gqd.data.resolve("logs/" + id + ".log")).lines().toList())
      if (line.startsWith("start ")) return Long.parseLong(line.substring(6).strip());
    throw new AssertionError("no start line in job " + id + "'s log");
  }

  JsonNode who() throws Exception {
    Gqd.Result r = gq("who", "--json");
    assertEquals(0, r.code(), r.toString());
    return Gqd.JSON.readTree(r.out());
  }

  /** The start and end (ns since the epoch) job {@code id} wrote in its log, once it ended. */
  long[] span(long id) throws Exception {
    Path log = gqd.data.resolve("logs/" + id + ".log");
    Gqd.await(user + "'s job " + id + " to end", T, () -> {
      try {
        return Files.exists(log) && Files.readString(log).contains("end ");
      } catch (Exception e) {
        return false;
      }
    });
    long start = 0, end = 0;
    for (String line : Files.readString(log).lines().toList()) {
      if (line.startsWith("start ")) start = Long.parseLong(line.substring(6).strip());
      if (line.startsWith("end ")) end = Long.parseLong(line.substring(4).strip());
    }
    return new long[] {start, end};
  }
}
