package dev.gq.actors.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One daemon per fake-GPU layout, shared by the tests of a class that need no fresh one: each
 * such test leaves no job of its own live when it ends, restarts nothing and counts no job but
 * its own. Started on first use, stopped (with every process of theirs) after the class's last
 * test. Register as {@code @RegisterExtension static final SharedDaemons SHARED = new SharedDaemons();}.
 */
final class SharedDaemons implements AfterAllCallback {
  private final Map<Integer, Gqd> byGpus = new LinkedHashMap<>();
  private Path root;

  /** The shared daemon with {@code gpus} fake GPUs, started now if it is the first use. */
  synchronized Gqd withGpus(int gpus) throws Exception {
    Gqd g = byGpus.get(gpus);
    if (g != null) return g;
    if (root == null) root = Files.createTempDirectory("gq-e2e-shared-");
    g = Gqd.start(root.resolve(gpus + "-gpus"), gpus);
    byGpus.put(gpus, g);
    return g;
  }

  @Override
  public synchronized void afterAll(ExtensionContext context) throws Exception {
    try {
      for (Gqd g : byGpus.values()) g.close();
    } finally {
      byGpus.clear();
      if (root != null) delete(root);
      root = null;
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    }
  }
}
