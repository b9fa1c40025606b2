package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/gq-daemon's heap limit, on an installed layout with a stand-in java that prints what it was
 * given: the limit the daemon noted for its queue ({@code <data>/daemon-heap}), GQ_DAEMON_HEAP over
 * it, 160m without either, and the out-of-memory line naming twice the limit.
 */
class LauncherHeapTest {
  private static final Path CHECKOUT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
  @TempDir Path tmp;

  /** An installed copy of the launcher, and a JDK whose java prints its arguments a line each. */
  @BeforeEach
  void layout() throws Exception {
    Path bin = tmp.resolve("lib/gq/bin");
    Files.createDirectories(bin);
    for (String f : new String[] {"gq-daemon", "gq-jdk.sh"}) Files.copy(CHECKOUT.resolve("bin").resolve(f), bin.resolve(f));
    Files.createDirectories(tmp.resolve("lib/gq/daemon"));
    Files.writeString(tmp.resolve("lib/gq/daemon/gq-daemon.jar"), "");
    Path jdk = tmp.resolve("jdk");
    Files.createDirectories(jdk.resolve("bin"));
    Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"25\"\n");
    Path java = jdk.resolve("bin/java");
    Files.writeString(java, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
  }

  private String launch(Map<String, String> env) throws Exception {
    Path jdk = tmp.resolve("jdk");
    ProcessBuilder pb = new ProcessBuilder("bash", tmp.resolve("lib/gq/bin/gq-daemon").toString()).redirectErrorStream(true);
    pb.environment().clear();
    pb.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString(), "JAVA_HOME", jdk.toString(),
        "XDG_CACHE_HOME", tmp.resolve("cache").toString(), "GQ_DATA_DIR", tmp.resolve("data").toString()));
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  @Test
  void theHeapFollowsTheQueueTheDaemonNotedAndGqDaemonHeapOverridesIt() throws Exception {
    assertTrue(launch(Map.of()).contains("\n-Xmx160m\n"), "160m with nothing noted");
    Files.createDirectories(tmp.resolve("data"));
    Files.writeString(tmp.resolve("data/daemon-heap"), "576m\n");
    String sized = launch(Map.of());
    assertTrue(sized.contains("\n-Xmx576m\n"), sized);
    assertTrue(sized.contains("the Java heap limit (576m, sized for the queue: GQ_DAEMON_HEAP sets another) is reached"), sized);
    assertTrue(sized.contains("e.g. GQ_DAEMON_HEAP=1152m gq daemon start"), sized);
    String set = launch(Map.of("GQ_DAEMON_HEAP", "1g"));
    assertTrue(set.contains("\n-Xmx1g\n") && set.contains("(1g, GQ_DAEMON_HEAP)") && set.contains("GQ_DAEMON_HEAP=2g"), set);
    Files.writeString(tmp.resolve("data/daemon-heap"), "lots\n");
    assertTrue(launch(Map.of()).contains("\n-Xmx160m\n"), "a hint that is not a size is ignored");
  }
}
