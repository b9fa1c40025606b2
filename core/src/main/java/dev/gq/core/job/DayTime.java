package dev.gq.core.job;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * A moment of a booking as people read it: the weekday and time ("Mon 14:00") when its day is
 * within the coming week (today and the six days after, so that the weekday names one day), else
 * the date and time ("2026-03-09 14:00"); a year past 9999 is written as a plain number, never with
 * a sign. Pure.
 */
public final class DayTime {
  private static final DateTimeFormatter WEEKDAY = DateTimeFormatter.ofPattern("EEE HH:mm", Locale.ROOT);
  private static final DateTimeFormatter DATE = new DateTimeFormatterBuilder()
      .appendValue(ChronoField.YEAR, 4, 10, SignStyle.NORMAL).appendPattern("-MM-dd HH:mm").toFormatter(Locale.ROOT);

  private DayTime() {}

  /** {@code t} in {@code zone}, as seen at {@code now}. */
  public static String of(Instant t, Instant now, ZoneId zone) {
    LocalDate day = t.atZone(zone).toLocalDate();
    LocalDate today = now.atZone(zone).toLocalDate();
    boolean thisWeek = !day.isBefore(today) && day.isBefore(today.plusDays(7));
    return (thisWeek ? WEEKDAY : DATE).format(t.atZone(zone));
  }

  /** "from Tue 14:00 to Tue 17:00": a window from {@code start} to {@code end}, each as {@link #of} writes it. */
  public static String window(Instant start, Instant end, Instant now, ZoneId zone) {
    return "from " + of(start, now, zone) + " to " + of(end, now, zone);
  }
}
