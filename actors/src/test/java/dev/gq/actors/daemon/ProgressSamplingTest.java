package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The progress sampler says when sampling fails: once at WARN a run, and when it works again. */
class ProgressSamplingTest {
  @Test
  void aFailingSampleIsAWarningOnceARunAndItsRecoveryIsSaid() {
    LoggerContext ctx = new LoggerContext();
    var logger = ctx.getLogger("sampling");
    logger.setLevel(Level.DEBUG);
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.setContext(ctx);
    lines.start();
    logger.addAppender(lines);
    AtomicInteger tick = new AtomicInteger();
    ProgressSampling sampling = new ProgressSampling(() -> {
      if (tick.incrementAndGet() <= 3) throw new IOException("history unreadable\nsecond line");
    }, logger);
    for (int i = 0; i < 5; i++) sampling.run();
    assertEquals(List.of(Level.WARN, Level.DEBUG, Level.DEBUG, Level.INFO),
        lines.list.stream().map(ILoggingEvent::getLevel).toList());
    assertEquals("cannot sample the running jobs' progress (history unreadable); gq tries again on every tick",
        lines.list.get(0).getFormattedMessage());
    ctx.stop();
  }
}
