package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gq.core.job.PrintableText;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the user typed is quoted in messages with its control characters escaped: one line each, no terminal sequences. */
class EscapedInputTest {
  @TempDir Path dir;

  /** The first line gq printed for {@code argv}, after checking that no printed line hides a control character. */
  private String said(int code, String... argv) {
    Cli.Result r = new Cli(dir).run(argv);
    assertEquals(code, r.code(), r.err());
    String all = r.out() + r.err();
    for (String line : all.split("\n", -1)) assertFalse(PrintableText.hasHidden(line), () -> "raw control character in " + all);
    return all.lines().findFirst().orElse("");
  }

  @Test
  void refusalsQuoteTheWordEscaped() {
    assertEquals("gq: invalid target name 'a\\x1b[31mRED'; use letters, digits, '.', '_' and '-'",
        said(2, "notify", "add", "webhook", "https://example.org/h", "--name", "a\u001b[31mRED"));
    assertEquals("gq: invalid mail address 'x\\x1b]0;p\\x07@a.b'; give one address such as you@example.org",
        said(2, "notify", "add", "mail", "x\u001b]0;p\u0007@a.b"));
    assertEquals("gq: unknown column 'x\\ny' in --format; the columns are id,state,pos,priority,gpus,pid,group,key,name,wait,elapsed,progress,note,exit,command",
        said(2, "ps", "-o", "x\ny"));
    assertEquals("gq: unknown command 'sub\\nmit'; did you mean 'submit'?", said(2, "sub\nmit"));
    assertEquals("gq: no GPU 0\\n1; gq sees no GPU now (by index or UUID, as 'gq gpu' shows)", said(2, "gpu", "drain", "0\n1"));
  }

  @Test
  void aGroupNameThatIsNoGroupIsShownEscaped() {
    assertEquals("No group \\x1b: no job has it, and it has no hold or cap.", said(0, "groups", "\u001b"));
  }
}
