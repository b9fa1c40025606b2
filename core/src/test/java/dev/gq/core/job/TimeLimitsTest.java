package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TimeLimitsTest {
  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void aLimitTooFarAwayNeverOverflowsAndIsNeverReached() {
    Duration huge = Duration.ofDays(7L * 999_999);
    assertEquals(TimeLimits.LONGEST_WAIT, TimeLimits.wait(START, huge, START));
    assertFalse(TimeLimits.reached(START, huge, START.plusSeconds(3600)));
    Duration beyondInstants = Duration.ofSeconds(Long.MAX_VALUE);
    assertNull(TimeLimits.deadline(START, beyondInstants));
    assertEquals(TimeLimits.LONGEST_WAIT, TimeLimits.wait(START, beyondInstants, START));
    assertFalse(TimeLimits.reached(START, beyondInstants, Instant.MAX));
  }

  @Test
  void aNearLimitIsWaitedForExactlyAndAPassedOneFiresAtOnce() {
    Duration hour = Duration.ofHours(1);
    assertEquals(Duration.ofMinutes(45), TimeLimits.wait(START, hour, START.plus(Duration.ofMinutes(15))));
    assertEquals(Duration.ZERO, TimeLimits.wait(START, hour, START.plus(Duration.ofHours(2))));
    assertTrue(TimeLimits.reached(START, hour, START.plus(hour)));
    assertFalse(TimeLimits.reached(START, hour, START.plus(Duration.ofMinutes(59))));
  }

  @Test
  void aLimitBeyondTheLongestWaitIsWaitedForInSteps() {
    Duration year = Duration.ofDays(365);
    assertEquals(TimeLimits.LONGEST_WAIT, TimeLimits.wait(START, year, START));
    assertEquals(Duration.ofDays(1), TimeLimits.wait(START, year, START.plus(Duration.ofDays(364))));
  }
}
