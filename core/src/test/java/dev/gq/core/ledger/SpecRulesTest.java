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
    assertEquals("the key must not be empty or blank", SpecRules.label("key", ""));
    assertEquals("the key must not be empty or blank", SpecRules.label("key", " \t "));
  }

  @Test
  void tooLongLabelIsRefusedWithItsLengthAndTheBound() {
    String why = SpecRules.label("group", "g".repeat(SpecRules.MAX_LABEL + 1));
    assertEquals("the group is 201 characters long; use at most 200", why);
  }

  @Test
  void controlCharactersAreRefused() {
    for (String v : new String[] {"a\nb", "a\tb", "a\rb", "a\u001bb", "a\u007fb", "a\0b"})
      assertEquals("the name must not contain control characters", SpecRules.label("name", v), v);
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
  void nameIsCheckedToo() {
    assertNotNull(SpecRules.check(new JobSpec(List.of("true"), "/w", Map.of(), 0, "a\nb", null, null)));
  }
}
