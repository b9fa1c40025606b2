package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real client process, started from a shell so that its arguments, environment and working
 * directory can be bytes that are not UTF-8: what gq passes on arrives exactly, what it cannot is
 * refused or left out with one line naming it, and {@code gq logs} gives back a log's bytes as they are.
 */
class BytesEndToEndTest {
  @TempDir Path tmp;

  record Run(int code, byte[] out, String err) {
    String text() {
      return new String(out, StandardCharsets.UTF_8);
    }
  }

  @Test
  void logsArgumentsAndEnvironmentKeepTheirBytes() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path gq = clientScript(g);
      byte[] blob = new byte[100_016];
      for (int i = 0; i < blob.length; i++) blob[i] = (byte) (i % 7 == 0 ? 0xe9 : i * 37 + (i >> 9));
      Files.write(g.work.resolve("blob"), blob);

      Run cat = sh(g, gq, "\"$GQ\" -g 0 cat blob");
      assertEquals(0, cat.code(), cat.err() + "\n" + g.daemonLog());
      // valid UTF-8 beyond ASCII passes even though the client's JVM runs in the C locale here
      Run utf8 = sh(g, gq, "\"$GQ\" -g 0 printf %s \"$(printf 'caf\\303\\251')\"");
      assertEquals(0, utf8.code(), utf8.err());
      Run env = sh(g, gq, "LATIN=$(printf 'caf\\351') \"$GQ\" -g 0 sh -c 'echo ${LATIN-unset}'");
      assertEquals(0, env.code(), env.err());
      assertEquals("gq: note: environment variable LATIN is not passed on: it is not valid UTF-8\n", env.err());
      Gqd.await("jobs 1-3 done", Duration.ofSeconds(60),
          () -> "DONE".equals(g.state(3)) && "DONE".equals(g.state(2)) && "DONE".equals(g.state(1)));

      Run logs = sh(g, gq, "\"$GQ\" logs 1");
      assertEquals(0, logs.code(), logs.err());
      assertEquals(blob.length, logs.out().length);
      assertArrayEquals(blob, logs.out());
      assertArrayEquals(Files.readAllBytes(g.data.resolve("logs/1.log")), logs.out());
      assertArrayEquals("café".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(g.data.resolve("logs/2.log")));
      assertEquals("unset\n", sh(g, gq, "\"$GQ\" logs 3").text());
    }
  }

  @Test
  void anArgumentOrWorkingDirectoryThatIsNotUtf8IsRefusedWithOneLine() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path gq = clientScript(g);
      Run arg = sh(g, gq, "\"$GQ\" -g 0 printf %s \"$(printf 'caf\\351')\"");
      assertEquals(2, arg.code(), arg.err());
      assertEquals("gq: argument 5 is not valid UTF-8: caf\\xe9; gq passes commands to jobs as UTF-8 text only:"
          + " re-encode it (e.g. with iconv -t UTF-8)\n", arg.err());

      Run dir = sh(g, gq, "d=$(printf 'dir\\377'); mkdir \"$d\" && cd \"$d\" && \"$GQ\" -g 0 true");
      assertEquals(2, dir.code(), dir.err());
      assertEquals(1, dir.err().lines().count(), dir.err());
      assertTrue(dir.err().startsWith("gq: the working directory " + g.work + "/dir\\xff cannot be named in UTF-8"), dir.err());
      assertEquals(1, g.gq("show", "1").code(), "nothing was submitted");
    }
  }

  /** The client, run with its arguments as given: the native gq. */
  private static Path clientScript(Gqd g) {
    return NativeClient.binary();
  }

  /** Runs {@code line} with /bin/sh in the work directory, $GQ being the client. */
  private static Run sh(Gqd g, Path gq, String line) {
    try {
      ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", line).directory(g.work.toFile());
      pb.environment().clear();
      pb.environment().putAll(g.env());
      pb.environment().put("GQ", gq.toString());
      pb.environment().put("GQ_DAEMON_CMD", ClientEndToEndTest.daemonScript(g).toString());
      pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
      Path out = Files.createTempFile(g.root, "out", ".bin"), err = Files.createTempFile(g.root, "err", ".txt");
      pb.redirectOutput(out.toFile()).redirectError(err.toFile());
      Process p = pb.start();
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("client hung: " + line);
      }
      return new Run(p.exitValue(), Files.readAllBytes(out), Files.readString(err, StandardCharsets.UTF_8));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
