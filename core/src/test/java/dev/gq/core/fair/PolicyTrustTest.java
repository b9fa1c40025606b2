package dev.gq.core.fair;

import static dev.gq.core.fair.PolicyTrust.Facts.*;
import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which policy files every user's gq may obey. */
class PolicyTrustTest {
  static final String F = "/etc/gq/policy.toml";

  @Test
  void aRootOwnedFileOthersCannotWriteIsTrusted() {
    assertNull(PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0644, 0, 0755), 0));
    assertNull(PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0600, 0, 01777), 0), "a sticky folder keeps root's file");
  }

  @Test
  void aFileOthersCanWriteIsRefusedWithTheFix() {
    assertEquals("the policy file /etc/gq/policy.toml is writable by others (mode 0666); run: chmod go-w /etc/gq/policy.toml",
        PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0666, 0, 0755), 0));
    assertEquals("the policy file /etc/gq/policy.toml is writable by others (mode 0646); run: chmod go-w /etc/gq/policy.toml",
        PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0646, 0, 0755), 0));
  }

  @Test
  void aFileItsGroupCanWriteIsSaidToBeWritableByItsGroup() {
    assertEquals("the policy file /etc/gq/policy.toml is writable by its group (mode 0664); run: chmod go-w /etc/gq/policy.toml",
        PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0664, 0, 0755), 0));
    assertTrue(PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0644, 0, 0775), 0)
        .startsWith("the policy file's folder /etc/gq is writable by its group (mode 0775), so its members could replace the file"));
  }

  @Test
  void aRefusalSaysWhatIsWrongAndTheFixNotWhatGqDoesMeanwhile() {
    // whether gq then runs without a policy or keeps the last good one is PolicyReading's to say
    for (PolicyTrust.Facts f : List.of(new PolicyTrust.Facts(LINK, 0, 0777, 0, 0755),
        new PolicyTrust.Facts(0010000, 0, 0644, 0, 0755), new PolicyTrust.Facts(REGULAR, 1000, 0644, 0, 0755),
        new PolicyTrust.Facts(REGULAR, 0, 0666, 0, 0755), new PolicyTrust.Facts(REGULAR, 0, 0644, 1000, 0755),
        new PolicyTrust.Facts(REGULAR, 0, 0644, 0, 0777))) {
      String why = PolicyTrust.refusal(F, f, 0);
      assertFalse(why.contains("ignored") || why.contains("without a policy") || why.contains("stays in force"), why);
    }
  }

  @Test
  void aLinkOrAnotherKindOfFileIsRefused() {
    assertTrue(PolicyTrust.refusal(F, new PolicyTrust.Facts(LINK, 0, 0777, 0, 0755), 0).contains("is a symbolic link"));
    assertTrue(PolicyTrust.refusal(F, new PolicyTrust.Facts(DIRECTORY, 0, 0755, 0, 0755), 0).contains("not a regular file"));
  }

  @Test
  void aFolderSomeoneElseCouldReplaceTheFileInIsRefused() {
    assertTrue(PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0644, 1000, 0755), 0)
        .startsWith("the policy file's folder /etc/gq is owned by uid 1000, not root"));
    assertTrue(PolicyTrust.refusal(F, new PolicyTrust.Facts(REGULAR, 0, 0644, 0, 0777), 0)
        .startsWith("the policy file's folder /etc/gq is writable by others (mode 0777)"));
  }

  @Test
  void theTrustedOwnerIsAParameterSoTestsCanBeIt() {
    assertNull(PolicyTrust.refusal("/tmp/p.toml", new PolicyTrust.Facts(REGULAR, 1000, 0644, 1000, 0700), 1000));
    assertTrue(PolicyTrust.refusal("/tmp/p.toml", new PolicyTrust.Facts(REGULAR, 0, 0644, 1000, 0700), 1000).contains("not uid 1000"));
  }
}
