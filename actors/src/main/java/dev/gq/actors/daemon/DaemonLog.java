package dev.gq.actors.daemon;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;
import dev.gq.host.fs.StandardStreams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon log's rotation. A client starts the daemon with its standard output and error
 * appended to {@code <data>/gq-daemon.log}; the daemon then writes that file through logback
 * itself and rotates it by size: past {@value #MAX_MIB} MiB it becomes {@code gq-daemon.log.1}
 * (the older ones move up to {@code .}{@value #KEEP}, the oldest is dropped), a new 0600 file is
 * started, and standard output and error are pointed at it, so what the JVM writes there follows.
 * A daemon whose standard error is anything else (a terminal, a test's file) logs there as before.
 */
final class DaemonLog {
  static final int MAX_MIB = 10;
  static final int KEEP = 3;
  static final long CHECK_MS = 200;
  private static final Logger LOG = LoggerFactory.getLogger(DaemonLog.class);

  private DaemonLog() {}

  /** Takes over the rotation of {@code log} when it is the daemon's standard error. */
  static void takeOverIfStderr(Path log) {
    try {
      if (!Files.isSameFile(Path.of("/proc/self/fd/2"), log)) return;
    } catch (IOException e) {
      return;
    }
    LoggerContext ctx = (LoggerContext) LoggerFactory.getILoggerFactory();
    rotate(ctx, log, FileSize.MB_COEFFICIENT * MAX_MIB, KEEP, CHECK_MS, DaemonLog::followedBy);
  }

  /**
   * Makes every line of {@code ctx} go to {@code log}, rotated past {@code maxBytes} keeping
   * {@code keep} old files (its size looked at once per {@code checkMs} at most); {@code afterRollover}
   * runs with the new file after each rotation.
   */
  static void rotate(LoggerContext ctx, Path log, long maxBytes, int keep, long checkMs, Consumer<Path> afterRollover) {
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(ctx);
    encoder.setPattern(ctx.getProperty("GQ_LOG_PATTERN"));
    encoder.start();
    Appender appender = new Appender(afterRollover);
    appender.setContext(ctx);
    appender.setName("FILE");
    appender.setFile(log.toString());
    appender.setEncoder(encoder);
    FixedWindowRollingPolicy window = new FixedWindowRollingPolicy();
    window.setContext(ctx);
    window.setParent(appender);
    window.setFileNamePattern(log + ".%i");
    window.setMinIndex(1);
    window.setMaxIndex(keep);
    window.start();
    SizeBasedTriggeringPolicy<ILoggingEvent> size = new SizeBasedTriggeringPolicy<>();
    size.setContext(ctx);
    size.setMaxFileSize(new FileSize(maxBytes));
    size.setCheckIncrement(Duration.buildByMilliseconds(checkMs));
    size.start();
    appender.setRollingPolicy(window);
    appender.setTriggeringPolicy(size);
    appender.start();
    ch.qos.logback.classic.Logger root = ctx.getLogger(Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    root.detachAppender("STDERR");
  }

  private static void followedBy(Path log) {
    try {
      Files.setPosixFilePermissions(log, PosixFilePermissions.fromString("rw-------"));
      StandardStreams.appendTo(log);
    } catch (IOException | RuntimeException e) {
      LOG.warn("cannot point standard error at the new daemon log {}: {}", log, e.toString());
    }
  }

  /** A rolling file appender that says when it has started a new file. */
  private static final class Appender extends RollingFileAppender<ILoggingEvent> {
    private final Consumer<Path> afterRollover;

    Appender(Consumer<Path> afterRollover) {
      this.afterRollover = afterRollover;
    }

    @Override
    public void rollover() {
      super.rollover();
      afterRollover.accept(Path.of(getFile()));
    }
  }
}
