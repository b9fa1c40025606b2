package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checkout's launcher script, bin/gq, in front of a real daemon. */
class LauncherEndToEndTest {
  @TempDir Path tmp;

  @Test
  void aBatchFromAClosedStandardInputIsRefusedAsClosed() throws Exception {
    Path gq = Path.of(System.getProperty("user.dir")).resolve("../bin/gq").normalize();
    try (Gqd g = Gqd.start(tmp.resolve("d"), 1)) {
      ProcessBuilder pb = new ProcessBuilder("bash", "-c", "exec \"$0\" submit -g 0 --batch - <&-", gq.toString());
      pb.environment().clear();
      pb.environment().putAll(g.env());
      pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
      pb.directory(g.work.toFile());
      Path out = tmp.resolve("out"), err = tmp.resolve("err");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      assertTrue(p.waitFor(90, TimeUnit.SECONDS), "the client ends");
      String e = Files.readString(err, StandardCharsets.UTF_8);
      assertEquals(1, p.exitValue(), e);
      assertEquals("gq: standard input is closed, so there is nothing to read; pipe the input in, or name a file\n", e);
      assertEquals(0, g.gq("ps", "--all", "--json").json().size(), "nothing was submitted");
    }
  }
}
