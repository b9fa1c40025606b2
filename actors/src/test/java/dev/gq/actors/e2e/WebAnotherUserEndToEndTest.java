package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another Unix user of the machine (made with useradd, run with runuser) against the page the first
 * user's {@code gq web} serves on 127.0.0.1: every address answers 403 with an empty body without
 * the token, and nothing that user can read holds the token: not {@code gq daemon status} (the
 * socket is the first user's), not the daemon's command line or environment in /proc, not any file
 * of the daemon's folders (which are left readable to all around them). Needs root.
 */
class WebAnotherUserEndToEndTest {
  private static final String OTHER = "gq-e2e-web-b";
  private static final Pattern SERVING = Pattern.compile("Serving the page at http://127\\.0\\.0\\.1:([0-9]+)/\\?token=([0-9a-f]{64})");

  @TempDir Path tmp;

  @Test
  void anotherUserGetsNothingFromThePageAndCannotLearnItsToken() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to make and become another user");
    assumeTrue(new File("/usr/sbin/runuser").canExecute() && new File("/usr/sbin/useradd").canExecute(), "needs runuser and useradd");
    OtherUser.make(OTHER);
    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1)) {
      long job = g.submit("run", "-g", "1", "--name", "private-name", "sleep", "60");
      g.awaitState(job, "RUNNING", Duration.ofSeconds(45));
      Gqd.Result web = g.gq("web");
      Matcher m = SERVING.matcher(web.out());
      assertTrue(m.find(), web.out());
      String port = m.group(1), token = m.group(2);

      for (String path : List.of("/", "/?token=" + "0".repeat(64), "/job/" + job, "/events", "/metrics", "/static/page.js")) {
        String answer = asOther("exec 3<>/dev/tcp/127.0.0.1/" + port + " && printf 'GET " + path
            + " HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nConnection: close\\r\\n\\r\\n' >&3 && cat <&3");
        assertTrue(answer.startsWith("HTTP/1.1 403"), path + ": " + answer);
        assertTrue(answer.endsWith("\r\n\r\n"), path + ": an empty body, not " + answer);
      }

      Gqd.Result status = new OtherUser(OTHER, g).gq("daemon", "status");
      assertNotEquals(0, status.code(), "the other user reached the first user's daemon: " + status);
      assertFalse(status.out().contains(token) || status.err().contains(token), status.toString());

      long pid = g.process().pid();
      String cmdline = asOther("tr '\\0' ' ' < /proc/" + pid + "/cmdline");
      assertTrue(cmdline.contains("java"), "the other user reads the daemon's command line: " + cmdline);
      assertFalse(cmdline.contains(token), cmdline);
      String found = asOther("grep -rl -- " + token + " " + tmp + " /proc/" + pid + "/cmdline /proc/" + pid + "/environ /dev/shm 2>/dev/null; true");
      assertEquals("", found, "files the other user can read that hold the token");
      try (Stream<Path> all = Files.walk(tmp)) {
        List<Path> holding = all.filter(Files::isRegularFile).filter(p -> holds(p, token)).toList();
        assertEquals(List.of(), holding, "no file of the daemon's, readable or not, holds the token");
      }
      g.gq("cancel", Long.toString(job));
    }
  }

  private static boolean holds(Path file, String token) {
    try {
      return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(token);
    } catch (IOException e) {
      return false;
    }
  }

  /** What {@code script} prints to its standard output, run by bash as the other user. */
  private static String asOther(String script) throws Exception {
    Process p = new ProcessBuilder("/usr/sbin/runuser", "-u", OTHER, "--", "/bin/bash", "-c", script)
        .directory(new File("/")).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    p.waitFor();
    return out;
  }
}
