package dev.gq.core.ledger;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecRulesTest {

  @Test
  void absentLabelIsFine() {
    assertNull(SpecRules.label("group", null));
  }

  @Test
  void ordinaryLabelsAreFine() {
    for (String v : new String[] {"sweep-3", "lr=0.1 bs=64", "résumé ü 学习", "x".repeat(SpecRules.MAX_LABEL)})
      assertNull(SpecRules.label("name", v), v);
  }

  @Test
  void emptyOrBlankLabelIsRefusedNamingIt() {
    assertEquals("the key must not be empty", SpecRules.label("key", ""));
    assertEquals("the key must not be blank", SpecRules.label("key", " \t "));
  }

  @Test
  void tooLongLabelIsRefusedWithItsLengthAndTheBound() {
    String why = SpecRules.label("group", "g".repeat(SpecRules.MAX_LABEL + 1));
    assertEquals("the group must be at most 200 characters (it has 201)", why);
  }

  @Test
  void controlCharactersAreRefused() {
    for (String v : new String[] {"a\nb", "a\tb", "a\rb", "a\u001bb", "a\u007fb", "a\0b", "a\u0085b"})
      assertTrue(SpecRules.label("name", v).startsWith("the name must not contain control characters (U+00"), v);
  }

  @Test
  void lineSeparatorsAndBidiOverridesAreRefusedNamingTheCharacter() {
    assertEquals("the group must not contain line or paragraph separators (U+2028 at character 2)", SpecRules.label("group", "a\u2028b"));
    assertEquals("the key must not contain bidirectional formatting characters (U+202E at character 2)", SpecRules.label("key", "a\u202eb"));
    assertEquals("the name must not contain bidirectional formatting characters (U+2067 at character 1)", SpecRules.label("name", "\u2067b"));
  }

  @Test
  void wellFormedSpecPasses() {
    assertNull(SpecRules.check(new JobSpec(List.of("python", "-c", ""), "/w", Map.of(), 0, "n", "g", "k")));
  }

  @Test
  void emptyLaterArgumentsAreAllowed() {
    assertNull(SpecRules.check(new JobSpec(List.of("printf", ""), "/w", Map.of(), 2, null, null, null)));
  }

  @Test
  void aTimeLimitIsAtMost365Days() {
    JobSpec s = new JobSpec(List.of("true"), "/w", Map.of(), 0, null, null, null);
    assertNull(SpecRules.check(s.withTimeLimit(java.time.Duration.ofDays(365))));
    assertEquals("the time limit must be at most 365 days, not 6999993d",
        SpecRules.check(s.withTimeLimit(java.time.Duration.ofDays(7 * 999999))));
  }

  @Test
  void nameIsCheckedToo() {
    assertNotNull(SpecRules.check(new JobSpec(List.of("true"), "/w", Map.of(), 0, "a\nb", null, null)));
  }
}
