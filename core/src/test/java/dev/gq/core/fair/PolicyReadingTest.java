package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** What is in force after each reading of the policy file, and the one thing its problem says about it. */
class PolicyReadingTest {
  static final String BAD = "the policy file /etc/gq/policy.toml is writable by others (mode 0666); run: chmod go-w /etc/gq/policy.toml";
  static final Policy TWO = Policy.from(Map.<String, Object>of("max_gpus_per_user", 2), "/etc/gq/policy.toml");

  @Test
  void anUnusableFileWithNoPolicyBeforeMeansNone() {
    PolicyReading r = PolicyReading.ABSENT.then(PolicyReading.refused(BAD));
    assertEquals(Policy.NONE, r.policy());
    assertEquals(BAD + "; until then gq runs without a policy", r.problem());
  }

  @Test
  void anUnusableFileAfterAGoodOneKeepsItAndSaysOnlyThat() {
    PolicyReading good = new PolicyReading(TWO, null);
    PolicyReading r = good.then(PolicyReading.refused(BAD));
    assertSame(TWO, r.policy());
    assertEquals(BAD + "; until then the last good policy stays in force", r.problem());
    assertFalse(r.problem().contains("without a policy"), r.problem());
    // still unusable on the next change: still the last good policy, said once
    PolicyReading again = r.then(PolicyReading.refused(BAD));
    assertSame(TWO, again.policy());
    assertEquals(BAD + "; until then the last good policy stays in force", again.problem());
  }

  @Test
  void aGoodFileOrNoFileIsTakenAsRead() {
    assertEquals(new PolicyReading(TWO, null), PolicyReading.ABSENT.then(new PolicyReading(TWO, null)));
    assertEquals(PolicyReading.ABSENT, new PolicyReading(TWO, null).then(PolicyReading.ABSENT));
  }
}
