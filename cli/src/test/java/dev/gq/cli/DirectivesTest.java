package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DirectivesTest {

  private static String refusal(String script) {
    return assertThrows(RefusedException.class, () -> Directives.parse(script)).getMessage();
  }

  @Test
  void readsAllFourDirectives() {
    String script = "#!/bin/bash\n#gq --gpus=2\n  #gq   --name= train a \n#gq\t--group=sweep\n#gq --key=lr=3\necho hi\n";
    assertEquals(new Directives(2, "train a", "sweep", "lr=3"), Directives.parse(script));
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
    assertEquals(new Directives(1, "n", null, null), Directives.parse("#gq --gpus=1\r\n#gq --name=n\r\n"));
  }

  @Test
  void malformedDirectiveNamesItsLine() {
    assertEquals("unsupported or malformed #gq directive on line 3: '#gq --gpus 2'; "
        + "use #gq --gpus=N, --name=TEXT, --group=TEXT or --key=TEXT", refusal("#!/bin/bash\n\n#gq --gpus 2\n"));
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
}
