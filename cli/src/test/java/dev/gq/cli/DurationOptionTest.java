package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationOptionTest {
  @Test
  void anOptionValueThatIsNoDurationIsAUsageErrorNamingTheOption() {
    UsageException e = assertThrows(UsageException.class, () -> DurationOption.parse("--time", "14"));
    assertEquals("invalid duration '14' for --time; use a count and a unit such as 30m, 2h, 3d", e.getMessage());
  }

  @Test
  void aGivenValueIsReadAndAMissingOneIsNull() {
    assertEquals(Duration.ofMinutes(90), DurationOption.parse("--timeout", "1h30m"));
    assertNull(DurationOption.parse("--timeout", null));
  }
}
