package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.CommandFault.Kind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommandFaultTest {
  @Test
  void namesWhatMakesACommandUnusable() {
    assertEquals(new CommandFault(Kind.MISSING, 0), CommandFault.of(List.of()));
    assertEquals(new CommandFault(Kind.EMPTY_NAME, 0), CommandFault.of(List.of("", "x")));
    assertEquals(new CommandFault(Kind.NUL_BYTE, 3), CommandFault.of(List.of("echo", "a", "b\0c")));
    assertNull(CommandFault.of(List.of("printf", "")));
  }

  @Test
  void theDaemonRefusesASpecByTheSameRule() {
    assertEquals("an argument of the command contains a NUL byte, which no program can receive",
        SpecRules.check(new JobSpec(List.of("echo", "a\0"), "/w", Map.of(), 0, null, null, null)));
    assertEquals(CommandFault.of(List.of("")).message(),
        SpecRules.check(new JobSpec(List.of(""), "/w", Map.of(), 0, null, null, null)));
  }

  @Test
  void retryCountsAndPrioritiesHaveOneRange() {
    assertNull(SpecRules.retries(0));
    assertNull(SpecRules.retries(SpecRules.MAX_RETRIES));
    assertEquals("--retries must be between 0 and 100, not 101", SpecRules.retries(101));
    assertEquals("--priority must be between -100 and 100, not -101", SpecRules.priority(-101));
  }
}
