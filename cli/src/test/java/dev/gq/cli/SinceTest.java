package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class SinceTest {
  static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
  static final ZoneId PARIS = ZoneId.of("Europe/Paris");

  static Instant since(String text) {
    return Since.parse(text, NOW, PARIS);
  }

  @Test
  void agesCountBackFromNow() {
    assertEquals(Instant.parse("2026-11-29T11:59:30Z"), since("30s"));
    assertEquals(Instant.parse("2026-11-29T11:50:00Z"), since("10m"));
    assertEquals(Instant.parse("2026-11-29T10:00:00Z"), since("2h"));
    assertEquals(Instant.parse("2026-11-26T12:00:00Z"), since("3d"));
  }

  @Test
  void isoTimesWithAZoneAreExact() {
    assertEquals(Instant.parse("2026-11-29T10:00:00Z"), since("2026-11-29T10:00:00Z"));
    assertEquals(Instant.parse("2026-11-29T10:00:00Z"), since("2026-11-29T11:00+01:00"));
    assertEquals(Instant.parse("2026-11-29T10:00:00.250Z"), since("2026-11-29T10:00:00.25Z"));
  }

  @Test
  void datesAndZonelessTimesAreInTheCallersZone() {
    assertEquals(Instant.parse("2026-11-28T23:00:00Z"), since("2026-11-29"));
    assertEquals(Instant.parse("2026-11-29T09:30:00Z"), since("2026-11-29T10:30"));
  }

  @Test
  void anythingElseIsAUsageError() {
    for (String bad : new String[] {"", "yesterday", "10", "10y", "-5m", "2026-13-01", "2026-11-29T25:00Z", "99999999999d"}) {
      assertThrows(UsageException.class, () -> since(bad), bad);
    }
  }
}
