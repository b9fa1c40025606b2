package dev.gq.actors.daemon;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.slf4j.Marker;

/**
 * Keeps a line that repeats (same logger, level, message and arguments) from flooding the daemon
 * log: it is written once, then left out for {@value #WINDOW_SECONDS} s, and when it comes again
 * after that, a line saying how many times it was left out precedes it ({@link Repeats} decides).
 * Installed in {@code logback.xml}; lines below their logger's level are not looked at.
 */
public final class RepeatFilter extends TurboFilter {
  static final long WINDOW_SECONDS = 60;
  private static final String FQCN = RepeatFilter.class.getName();
  private final Repeats repeats = new Repeats(TimeUnit.SECONDS.toNanos(WINDOW_SECONDS));
  private final ThreadLocal<Boolean> reporting = ThreadLocal.withInitial(() -> false);

  @Override
  public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params, Throwable t) {
    if (format == null || reporting.get() || !level.isGreaterOrEqual(logger.getEffectiveLevel())) return FilterReply.NEUTRAL;
    String line = logger.getName() + ' ' + level + ' ' + format + ' ' + Arrays.deepToString(params);
    Repeats.Verdict v = repeats.seen(line, System.nanoTime());
    if (!v.write()) return FilterReply.DENY;
    if (v.leftOut() > 0) report(logger, level, v.leftOut());
    return FilterReply.NEUTRAL;
  }

  private void report(Logger logger, Level level, long leftOut) {
    reporting.set(true);
    try {
      logger.log(null, FQCN, Level.toLocationAwareLoggerInteger(level),
          "the next line also came {} times in the {} s after it was last written; those were left out", new Object[] {leftOut, WINDOW_SECONDS}, null);
    } finally {
      reporting.set(false);
    }
  }
}
