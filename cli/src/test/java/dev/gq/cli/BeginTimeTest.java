package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BeginTimeTest {
  private static final Instant NOW = Instant.parse("2026-11-30T15:00:00Z");
  private static final ZoneId UTC = ZoneId.of("UTC");

  @Test
  void aDurationCountsFromNow() {
    assertEquals(NOW.plusSeconds(1800), BeginTime.parse("30m", NOW, UTC));
    assertEquals(NOW.plusSeconds(5400), BeginTime.parse("1h30m", NOW, UTC));
  }

  @Test
  void aTimeOfDayIsTodayOrTomorrowOnceItHasPassed() {
    assertEquals(Instant.parse("2026-11-30T16:00:00Z"), BeginTime.parse("16:00", NOW, UTC));
    assertEquals(Instant.parse("2026-12-01T08:30:00Z"), BeginTime.parse("8:30", NOW, UTC));
    assertEquals(Instant.parse("2026-11-30T15:30:00Z"), BeginTime.parse("16:30", NOW, ZoneId.of("Europe/Berlin")));
    assertEquals(Instant.parse("2026-12-01T15:00:00Z"), BeginTime.parse("16:00", NOW, ZoneId.of("Europe/Berlin")), "now is past");
  }

  @Test
  void aDateAndTimeIsInTheZoneGivenOrItsOwnOffset() {
    assertEquals(Instant.parse("2026-12-01T07:00:00Z"), BeginTime.parse("2026-12-01T08:00", NOW, ZoneId.of("Europe/Berlin")));
    assertEquals(Instant.parse("2026-12-01T08:00:00Z"), BeginTime.parse("2026-12-01T08:00Z", NOW, ZoneId.of("Europe/Berlin")));
  }

  @Test
  void anythingElseIsAUsageErrorNamingTheForms() {
    assertNull(BeginTime.parse("tomorrow", NOW, UTC));
    assertNull(BeginTime.parse("25:00", NOW, UTC));
    UsageException e = assertThrows(UsageException.class, () -> BeginTime.option("soon", NOW, Map.of()));
    assertEquals("--begin takes " + BeginTime.FORMS + ", not 'soon'", e.getMessage());
    assertEquals(Instant.parse("2026-12-01T08:00:00Z"), BeginTime.option("2026-12-01T17:00", NOW, Map.of("TZ", ":Asia/Tokyo")),
        "in the caller's TZ");
  }
}
