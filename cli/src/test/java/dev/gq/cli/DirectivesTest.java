package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.Dependency;
import org.junit.jupiter.api.Test;

class DirectivesTest {

  private static String refusal(String script) {
    return assertThrows(RefusedException.class, () -> Directives.parse(script)).getMessage();
  }

  @Test
  void readsAllFourDirectives() {
    String script = "#!/bin/bash\n#gq --gpus=2\n  #gq   --name= train a \n#gq\t--group=sweep\n#gq --key=lr=3\necho hi\n";
    assertEquals(new Directives(2, "train a", "sweep", "lr=3", Scheduling.NONE), Directives.parse(script));
  }

  @Test
  void noDirectivesMeansNothingGiven() {
    assertEquals(Directives.NONE, Directives.parse("#!/bin/bash\n# gq is great\necho '#gq --gpus=x'\n"));
  }

  @Test
  void zeroGpusMeansZero() {
    assertEquals(0, Directives.parse("#gq --gpus=0\n").gpus());
  }

  @Test
  void laterLinesWin() {
    assertEquals(3, Directives.parse("#gq --gpus=1\n#gq --gpus=3\n").gpus());
  }

  @Test
  void windowsLineEndingsAreFine() {
    assertEquals(new Directives(1, "n", null, null, Scheduling.NONE), Directives.parse("#gq --gpus=1\r\n#gq --name=n\r\n"));
  }

  @Test
  void malformedDirectiveNamesItsLine() {
    assertEquals("unsupported or malformed #gq directive on line 3: '#gq gpus=2'; "
        + "use #gq --gpus=N, --name=TEXT, --group=TEXT, --key=TEXT, --time=DURATION, --retries=N, --priority=N, --after=JOB, --after-ok=JOB, --resume-arg=WORDS, --notify=EVENTS, --vram=SIZE, --gpu-type=TYPE, --share or --per-gpu=K",
        refusal("#!/bin/bash\n\n#gq gpus=2\n"));
  }

  @Test
  void aBlankInsteadOfTheEqualsSignWorksAsInSbatchLines() {
    Directives d = Directives.parse("#gq --gpus 2\n#gq --name  long run \n#gq\t--time\t1h\n");
    assertEquals(2, d.gpus());
    assertEquals("long run", d.name());
    assertEquals(java.time.Duration.ofHours(1), d.scheduling().time());
  }

  @Test
  void aMisspeltDirectiveGetsTheClosestName() {
    assertEquals("unknown #gq directive --gpu on line 2; did you mean --gpus?", refusal("#!/bin/bash\n#gq --gpu=1\n"));
    assertEquals("unknown #gq directive --nmae on line 1; did you mean --name?", refusal("#gq --nmae x"));
  }

  @Test
  void unknownDirectiveAndGluedPrefixAreRefused() {
    assertEquals(true, refusal("#gq --priority=high").contains("on line 1"));
    assertEquals(true, refusal("echo\n#gqx --gpus=1").contains("on line 2"));
    assertEquals(true, refusal("#gq").contains("on line 1"));
  }

  @Test
  void badGpuCountNamesItsLine() {
    assertEquals("invalid GPU count on line 2: 'two'; use a whole number, 0 or more", refusal("\n#gq --gpus=two\n"));
    assertEquals("invalid GPU count on line 1: '-1'; use a whole number, 0 or more", refusal("#gq --gpus=-1"));
  }

  @Test
  void emptyOrBadLabelsNameTheirLine() {
    assertEquals("empty name on line 1", refusal("#gq --name=   "));
    assertEquals("the group on line 1 must be at most 200 characters (it has 201)", refusal("#gq --group=" + "g".repeat(201)));
    assertEquals("empty key on line 2", refusal("#gq --gpus=1\n#gq --key="));
  }

  @Test
  void schedulingDirectivesAreRead() {
    Scheduling s = Directives.parse("#gq --time=1h30m\n#gq --retries=2\n#gq --after=12\n#gq --after-ok=14,15\n").scheduling();
    assertEquals(java.time.Duration.ofMinutes(90), s.time());
    assertEquals(2, s.retries());
    assertEquals(java.util.List.of(new Dependency(12, false), new Dependency(14, true), new Dependency(15, true)), s.after());
  }

  @Test
  void laterTimeAndRetriesWinButDependenciesAddUp() {
    Scheduling s = Directives.parse("#gq --time=2h\n#gq --time=3d\n#gq --after=1\n#gq --after=2\n").scheduling();
    assertEquals(java.time.Duration.ofDays(3), s.time());
    assertEquals(2, s.after().size());
  }

  @Test
  void badSchedulingDirectivesNameTheirLine() {
    assertEquals("invalid duration '14' on line 2; use a count and a unit such as 30m, 2h, 3d", refusal("\n#gq --time=14"));
    assertEquals("invalid duration '1.5h' on line 1; use a count and a unit such as 30m, 2h, 3d", refusal("#gq --time=1.5h"));
    assertEquals("invalid retry count on line 1: '-1'; use a whole number from 0 to 100", refusal("#gq --retries=-1"));
    assertEquals("invalid job id on line 1: 'x'; use a job number like 12", refusal("#gq --after=12,x"));
    assertEquals("invalid job id on line 1: '0'; use a job number like 12", refusal("#gq --after-ok=0"));
    assertEquals(true, refusal("#gq --after 12 x").contains("on line 1"));
  }

  @Test
  void aPriorityDirectiveIsReadAndOneOutOfRangeIsRefusedNamingItsLine() {
    assertEquals(Integer.valueOf(-7), Directives.parse("#gq --priority=-7\n#gq --retries=1\n").scheduling().priority());
    RefusedException e = assertThrows(RefusedException.class, () -> Directives.parse("#!/bin/bash\n#gq --priority=101\n"));
    assertTrue(e.getMessage().startsWith("invalid priority on line 2: '101'"), e.getMessage());
  }
}
