package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import ch.qos.logback.classic.LoggerContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonLogTest {
  @TempDir Path dir;

  @Test
  void theLogIsRotatedBySizeKeepingAFewFiles() throws Exception {
    LoggerContext ctx = new LoggerContext();
    ctx.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
    ctx.putProperty("GQ_LOG_PATTERN", "%msg%n");
    Path log = dir.resolve("gq-daemon.log");
    List<Path> started = new CopyOnWriteArrayList<>();
    DaemonLog.rotate(ctx, log, 1000, 3, 0, started::add);
    var logger = ctx.getLogger("test");
    for (int i = 0; i < 500; i++) logger.info("line {} of a daemon that talks a lot", i);
    ctx.stop();

    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(List.of("gq-daemon.log", "gq-daemon.log.1", "gq-daemon.log.2", "gq-daemon.log.3"),
          files.map(p -> p.getFileName().toString()).sorted().toList());
    }
    for (String name : List.of("gq-daemon.log.1", "gq-daemon.log.2", "gq-daemon.log.3"))
      assertTrue(Files.size(dir.resolve(name)) < 1100, name + " is " + Files.size(dir.resolve(name)) + " bytes");
    assertTrue(Files.readString(log).endsWith("line 499 of a daemon that talks a lot\n"), Files.readString(log));
    assertFalse(started.isEmpty());
    assertTrue(started.stream().allMatch(log::equals), started.toString());
  }
}
