package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void readsCountsWithUnitsLargestFirst() {
    assertEquals(Duration.ofSeconds(30), Durations.parse("30s"));
    assertEquals(Duration.ofMinutes(45), Durations.parse("45m"));
    assertEquals(Duration.ofHours(2), Durations.parse("2h"));
    assertEquals(Duration.ofDays(3), Durations.parse("3d"));
    assertEquals(Duration.ofDays(14), Durations.parse("2w"));
    assertEquals(Duration.ofMinutes(90), Durations.parse("1h30m"));
    assertEquals(Duration.ofSeconds(86400 + 3600 + 60 + 1), Durations.parse("1d1h1m1s"));
  }

  @Test
  void refusesFractionsBareNumbersSignsZeroAndUnknownUnits() {
    for (String bad : new String[] {"1.5h", "14", "-1d", "14y", "", " ", "0s", "0h0m", "h", "30m1h", "2h2h", "1 h", "+2h"}) {
      assertNull(Durations.parse(bad), bad);
    }
  }

  @Test
  void saysWhatIsWrongWithATextThatIsNoDuration() {
    assertEquals("invalid duration '14' for --time; use a count and a unit such as 30m, 2h, 3d", Durations.problem("14", " for --time"));
  }

  @Test
  void aDurationPastItsBoundIsSaidInDaysNamingTheOption() {
    assertNull(Durations.tooLong(Duration.ofDays(365), Durations.LONGEST, "--time", "365d"));
    assertEquals("--time must be at most 365 days, not '999999w'",
        Durations.tooLong(Durations.parse("999999w"), Durations.LONGEST, "--time", "999999w"));
    assertEquals("--older-than must be at most 36,500 days, not '999999999w'",
        Durations.tooLong(Durations.parse("999999999w"), Durations.OLDEST, "--older-than", "999999999w"));
  }

  @Test
  void formatsAsTyped() {
    assertEquals("1h30m", Durations.format(Duration.ofMinutes(90)));
    assertEquals("30d", Durations.format(Duration.ofDays(30)));
    assertEquals("45s", Durations.format(Duration.ofSeconds(45)));
    assertEquals("1d2h", Durations.format(Duration.ofHours(26)));
    assertEquals("1m5s", Durations.format(Duration.ofSeconds(65)));
    assertEquals("0s", Durations.format(Duration.ZERO));
    assertEquals("250ms", Durations.format(Duration.ofMillis(250)));
  }
}
