package dev.gq.web;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobState;
import dev.gq.core.job.WaitReason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pages as the server renders them: what they show, and that nothing a user wrote becomes markup. */
class PagesTest {
  private static final String TOKEN = "ab".repeat(32);

  @Test
  void hostileTextIsShownEscapedNeverAsMarkup() {
    String page = Pages.machine(Views.view(), TOKEN);
    assertFalse(page.contains("<img"), "no element from a job's name, a GPU's name or another user's line");
    assertFalse(page.contains("\u001b") || page.contains("\u009b"), "no ESC or C1 control reaches the page");
    assertTrue(page.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;\\x1b[31m\\u009b&amp;"), page);
  }

  @Test
  void escapingCoversEveryMarkupCharacterAndEveryControl() {
    assertEquals("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;", Html.text("<script>alert(\"x\")</script>"));
    assertEquals("a&#39;b &amp;amp;", Html.text("a'b &amp;"));
    assertEquals("\\x1b[2J\\x07\\u0085\\u202e", Html.text("\u001b[2J\u0007\u0085\u202e"));
    assertEquals("", Html.text(null));
    assertEquals("line 1\n\\x1b]0;title\\x07&lt;b&gt;\n", Html.lines("line 1\n\u001b]0;title\u0007<b>\n"));
  }

  @Test
  void theMachinePageShowsGpusEveryoneAndTheJobsWithLinksThatCarryTheToken() {
    String page = Pages.machine(Views.view(), TOKEN);
    for (String s : List.of("<h2 id=\"gpus-h\">GPUs</h2>", "<h2 id=\"who-h\">Everyone on this machine</h2>",
        "<h2 id=\"jobs-h\">Your jobs</h2>", "H100", "97 %", "71 °C", "300 / 700 W", "10240 / 81920 MiB", "unwell: Xid 79",
        "alice's <a href=\"/job/7?token=" + TOKEN + "\">job 7</a>", "Policy: no policy file", "booked by carol",
        "GPUs busy", "RUNNING", "WAITING", "data-events=\"/events?token=" + TOKEN + "\"",
        "src=\"/static/page.js?token=" + TOKEN + "\"", "<th scope=\"col\">Holder</th>", "lang=\"en\"", "name=\"viewport\""))
      assertTrue(page.contains(s), s + " in " + page);
  }

  @Test
  void aWaitReasonCarryingHostileTextIsShownEscaped() {
    MachineView v = Views.view();
    MachineView slurm = new MachineView(v.now(), v.zone(), v.user(), v.gpus(), v.processes(), v.who(), v.jobs(),
        Map.of(8L, new WaitReason.SlurmQueued(Views.FORGED)), v.progress(), v.groups(), v.queueHeld());
    String page = Pages.machine(slurm, TOKEN);
    assertFalse(page.contains("<img"), page);
    assertTrue(page.contains("Slurm &lt;img src=x onerror=alert(1)&gt;"), page);
  }

  @Test
  void aJobPageShowsItsFactsAndItsLogFromWhereTheStreamGoesOn() {
    var j = Views.job(8, "sweep", JobState.WAITING, List.of("echo", "hi"));
    String page = Pages.job(j, null, new WaitReason.GpusBusy(1, 0, List.of()), Views.view().zone(),
        new LogText("step 1\n<b>step 2</b>\n", 1234, null), TOKEN);
    assertTrue(page.contains("<h1>Job 8: sweep</h1>"), page);
    assertTrue(page.contains("<dt>Why it waits</dt><dd>needs 1 GPU, 0 free</dd>"), page);
    assertTrue(page.contains("step 1\n&lt;b&gt;step 2&lt;/b&gt;\n</pre>"), page);
    assertTrue(page.contains("data-events=\"/events/job/8?from=1234&amp;token=" + TOKEN + "\""), page);
  }

  @Test
  void eachSectionIsRenderedOnItsOwnSoThatOnlyAChangedOneIsSent() {
    Map<String, String> sections = Pages.sections(Views.view(), TOKEN);
    assertEquals(List.of("gpus", "who", "jobs", "groups"), List.copyOf(sections.keySet()));
    assertEquals(sections, Pages.sections(Views.view(), TOKEN), "the same view renders the same bytes");
  }

  @Test
  void anEventCarriesEachLineOfItsDataOnItsOwnLineAndNoCarriageReturn() {
    assertEquals("event: log\ndata: a\ndata: b\ndata: \n\n", SseStream.frame("log", "a\r\nb\n"));
  }

  @Test
  void aLogPieceKeepsWholeLinesOnlyAndTheLastDrawingOfARedrawnLine() {
    byte[] b = "cut line\n10%\r50%\r100%\n\u001b[32mgreen\u001b[0m\npartial".getBytes();
    LogText t = LogText.whole(b, b.length, 100, true);
    assertEquals("100%\ngreen\n", t.text());
    assertEquals(100 + b.length - "partial".length(), t.end());
  }

  @Test
  void theTokenIsLongRandomAndComparedWhole() {
    String t = Token.fresh();
    assertEquals(64, t.length());
    assertNotEquals(t, Token.fresh());
    assertTrue(Token.carried("a=1&token=" + t, t));
    assertFalse(Token.carried("token=" + t.substring(1), t));
    assertFalse(Token.carried("token=", t));
    assertFalse(Token.carried(null, t));
  }
}
