package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Through the real daemon: a duration past its bound, a configuration key the file does not take,
 * a caller's GQ_CONFIG the daemon does not read and a word with control characters are each one
 * line, and nothing is queued.
 */
class InputEdgesEndToEndTest {
  @TempDir static Path tmp;
  static Gqd g;
  static Path config;

  @BeforeAll
  static void start() throws Exception {
    config = tmp.resolve("config.toml");
    Files.writeString(config, "[slurm.a100]\npartition = \"gpu\"\n");
    g = Gqd.start(tmp.resolve("main"), 1, Map.of("GQ_CONFIG", config.toString()));
  }

  @AfterAll
  static void stop() throws Exception {
    g.close();
  }

  private static String oneLine(Gqd.Result r, int code) {
    assertEquals(code, r.code(), r.toString());
    String first = r.err().lines().findFirst().orElse("");
    assertFalse(dev.gq.core.job.PrintableText.hasHidden(first), first);
    return first;
  }

  private static int jobs() {
    return g.gq("ps", "--all", "--json").json().size();
  }

  @Test
  void aTimeLimitPastItsBoundIsRefusedAtTheEdge() {
    long before = jobs();
    assertEquals("gq: --time must be at most 365 days, not '999999w'", oneLine(g.gq("-g", "0", "--time", "999999w", "ls"), 2));
    assertEquals("gq: --begin must be within 365 days of now, not '999999999w'",
        oneLine(g.gq("-g", "0", "--begin", "999999999w", "ls"), 2));
    assertEquals(before, jobs());
  }

  @Test
  void anUnknownKeyRefusesClusterSubmitsNamingTheFileAndTheKeyMeant() throws Exception {
    long before = jobs();
    Files.writeString(config, "[slurmm.a100]\npartition = \"gpu\"\n");
    try {
      assertEquals("gq: " + config + ": unknown table [slurmm]; did you mean [slurm]?",
          oneLine(g.gq("-g", "0", "--to", "slurm:a100", "true"), 1));
      Files.writeString(config, "foo = 1\n");
      assertEquals("gq: " + config + ": unknown key foo; the file takes to, slurm_poll and [slurm.NAME] tables",
          oneLine(g.gq("-g", "0", "true"), 1));
      assertEquals(before, jobs());
      assertEquals(0, g.gq("-g", "0", "--to", "local", "true").code(), "--to local reads no file");
    } finally {
      Files.writeString(config, "[slurm.a100]\npartition = \"gpu\"\n");
    }
  }

  @Test
  void aCallersGqConfigThatTheDaemonDoesNotReadNamesRestart() throws Exception {
    Map<String, String> env = new HashMap<>(g.env());
    env.put("GQ_CONFIG", tmp.resolve("mine.toml").toString());
    long before = jobs();
    String line = oneLine(g.gqWith(g.work, env, "-g", "0", "true"), 1);
    assertTrue(line.startsWith("gq: GQ_CONFIG names " + tmp.resolve("mine.toml") + " here, but the daemon reads " + config), line);
    assertTrue(line.contains("'gq daemon restart'"), line);
    assertEquals(before, jobs());
  }

  @Test
  void aWordWithControlCharactersIsQuotedEscaped() {
    assertEquals("gq: unknown command 'sub\\nmit'; did you mean 'submit'?", oneLine(g.gq("sub\nmit"), 2));
    assertEquals("gq: invalid target name 'a\\x1b[31mRED'; use letters, digits, '.', '_' and '-'",
        oneLine(g.gq("notify", "add", "webhook", "https://example.org/h", "--name", "a\u001b[31mRED"), 2));
  }
}
