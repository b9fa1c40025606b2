package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The machine policy's keys, and the one line for each thing wrong with them. */
class PolicyTest {
  static final String F = "/etc/gq/policy.toml";

  @Test
  void everyKeyIsRead() {
    Policy p = Policy.from(Map.of("max_gpus_per_user", 2, "max_gpus_per_user_always", 6L,
        "interactive_gpus", List.of(7, "GPU-5d3c-aa"), "max_time_on_shared", "3d", "admins", List.of("alice"),
        "fair_turn", "1m"), F);
    assertEquals(2, p.maxGpusPerUser());
    assertEquals(6, p.maxGpusPerUserAlways());
    assertTrue(p.interactive(7, "GPU-x"));
    assertTrue(p.interactive(0, "GPU-5d3c-aa"));
    assertFalse(p.interactive(1, "GPU-y"));
    assertEquals(Duration.ofDays(3), p.maxTimeOnShared());
    assertTrue(p.admin("alice"));
    assertEquals(Duration.ofMinutes(1), p.fairTurn());
  }

  @Test
  void interactiveIndicesResolveToTheMachinesUuids() {
    Policy p = Policy.from(Map.of("interactive_gpus", List.of(1, 9, "GPU-b")), F).resolved(Map.of(0, "GPU-a", 1, "GPU-c"));
    assertEquals(List.of("GPU-c", "9", "GPU-b"), p.interactiveGpus());
    assertTrue(p.interactive(1, "GPU-c"));
  }

  @Test
  void anEmptyFileIsTodaysBehaviour() {
    assertEquals(Policy.NONE, Policy.from(Map.of(), F));
  }

  @Test
  void unknownKeysWrongTypesAndBadValuesAreOneLineEach() {
    assertEquals(F + ": unknown key max_gpu_per_user; did you mean max_gpus_per_user?", problem(Map.of("max_gpu_per_user", 2)));
    assertTrue(problem(Map.of("max_gpus_per_user", "2")).startsWith(F + ": max_gpus_per_user must be a whole number of GPUs without quotes"));
    assertTrue(problem(Map.of("max_gpus_per_user", 0)).contains("between 1 and 4096, not 0"));
    assertTrue(problem(Map.of("interactive_gpus", List.of(-1))).contains("indices from 0 to 4095, not -1"));
    assertTrue(problem(Map.of("interactive_gpus", "0")).contains("a list of GPU indices or UUIDs"));
    assertTrue(problem(Map.of("max_time_on_shared", "3 days")).contains("not '3 days'"));
    assertTrue(problem(Map.of("max_time_on_shared", 3)).contains("a duration in quotes"));
    assertTrue(problem(Map.of("admins", List.of("Bob Smith"))).contains("a list of login names"));
    assertTrue(problem(Map.of("fair_turn", "1s")).contains("at least 5s"));
    assertTrue(problem(Map.of("fair_turn", "1h")).contains("at most 10m"));
    assertEquals(F + ": max_gpus_per_user (4) is more than max_gpus_per_user_always (2), so it would never apply;"
        + " lower it or raise max_gpus_per_user_always", problem(Map.of("max_gpus_per_user", 4, "max_gpus_per_user_always", 2)));
    for (String line : List.of(problem(Map.of("nonsense\nkey", 1)), problem(Map.of("admins", List.of("x\ny")))))
      assertFalse(line.contains("\n"), line);
  }

  @Test
  void theLongestTimeRefusesLongerJobsAndLimitsJobsWithoutOne() {
    Policy p = new Policy(Policy.UNLIMITED, Policy.UNLIMITED, List.of(), Duration.ofDays(1), Set.of(), null);
    assertNull(p.timeRefusal(Duration.ofHours(24)));
    assertNull(p.timeRefusal(null));
    assertEquals("--time 2d is longer than this machine's policy allows on shared GPUs (1d, max_time_on_shared in"
        + " /etc/gq/policy.toml); ask for --time 1d or less", p.timeRefusal(Duration.ofDays(2)));
    assertEquals(Duration.ofDays(1), p.limitFor(null));
    assertEquals(Duration.ofHours(2), p.limitFor(Duration.ofHours(2)));
    assertNull(Policy.NONE.limitFor(null));
  }

  private static String problem(Map<String, Object> doc) {
    return assertThrows(IllegalArgumentException.class, () -> Policy.from(doc, F)).getMessage();
  }
}
