package dev.gq.core.resume;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResumeArgsTest {
  private static final String CK = "/runs/a/checkpoint-150";

  @Test
  void aTemplateIsAppendedWhenTheCommandHasNoSuchFlag() {
    assertEquals(List.of("python", "train.py", "--lr", "3e-4", "--resume_from_checkpoint", CK),
        ResumeArgs.apply(List.of("python", "train.py", "--lr", "3e-4"), "--resume_from_checkpoint {ckpt}", CK));
  }

  @Test
  void theHuggingFaceFlagIsReplacedNotDoubledInEitherSpellingAndForm() {
    assertEquals(List.of("python", "t.py", "--resume_from_checkpoint", CK, "--lr", "1"),
        ResumeArgs.apply(List.of("python", "t.py", "--resume_from_checkpoint", "old", "--lr", "1"), null, CK));
    assertEquals(List.of("python", "t.py", "--resume_from_checkpoint", CK),
        ResumeArgs.apply(List.of("python", "t.py", "--resume-from-checkpoint=old"), "--resume_from_checkpoint {ckpt}", CK));
    assertEquals(List.of("t", "--resume-from-checkpoint", CK),
        ResumeArgs.apply(List.of("t", "--resume-from-checkpoint", "a", "--resume-from-checkpoint", "b"), null, CK));
  }

  @Test
  void withoutATemplateOrAFlagTheCommandIsLeftAsItIs() {
    assertEquals(List.of("python", "t.py"), ResumeArgs.apply(List.of("python", "t.py"), null, CK));
  }

  @Test
  void anEqualsTemplateReplacesItsFlagAndWordsAfterADoubleDashAreLeftAlone() {
    assertEquals(List.of("run", "--ckpt=" + CK, "--", "--ckpt=x"),
        ResumeArgs.apply(List.of("run", "--ckpt=old", "--", "--ckpt=x"), "--ckpt={ckpt}", CK));
    assertEquals(List.of("run", "--", "--resume_from_checkpoint", "x"),
        ResumeArgs.apply(List.of("run", "--", "--resume_from_checkpoint", "x"), null, CK), "after -- it is not gq's to change");
  }

  @Test
  void aTemplateWithoutThePlaceholderOrEmptyIsRefused() {
    assertNotNull(ResumeArgs.problem("--resume"));
    assertNotNull(ResumeArgs.problem("  "));
    assertNull(ResumeArgs.problem("--resume {ckpt}"));
  }

  @Test
  void checkpointsAreUnderTheOutputDirectoryNewestFirst() {
    assertEquals(Path.of("/w/out"), Checkpoints.root(List.of("python", "t.py", "--output_dir", "out"), "/w"));
    assertEquals(Path.of("/abs"), Checkpoints.root(List.of("python", "t.py", "--output-dir=/abs"), "/w"));
    assertEquals(Path.of("/w"), Checkpoints.root(List.of("python", "t.py"), "/w"));
    assertEquals(List.of("checkpoint-1000", "checkpoint-150", "checkpoint-9"),
        Checkpoints.newestFirst(List.of("checkpoint-9", "runs", "checkpoint-1000", "checkpoint-150", "checkpoint-x")));
  }
}
