package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.cli.TopKeys.Key;
import dev.gq.cli.TopKeys.Kind;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TopViewTest {
  private final List<Job> jobs = List.of(Jobs.job(4, JobState.RUNNING), Jobs.job(5, JobState.WAITING),
      Jobs.job(2, JobState.DONE));

  private static Key ch(char c) {
    return Key.ch(c);
  }

  private TopView.Effect press(TopView v, String typed) {
    TopView.Effect last = TopView.REDRAW;
    for (Key k : TopKeys.parse(typed)) last = v.press(k, jobs);
    return last;
  }

  @Test
  void readsArrowsInBothFormsPagesEnterEscAndCharacters() {
    assertEquals(List.of(Key.of(Kind.UP), Key.of(Kind.DOWN), Key.of(Kind.UP), Key.of(Kind.PAGE_DOWN), Key.of(Kind.HOME),
        Key.of(Kind.END), Key.of(Kind.ENTER), Key.ch('q'), Key.of(Kind.ESC), Key.of(Kind.INTERRUPT), Key.of(Kind.BACKSPACE)),
        TopKeys.parse("\u001b[A\u001b[B\u001bOA\u001b[6~\u001b[H\u001b[4~\rq\u001b\u0003\u007f"));
    assertEquals(List.of(Key.ch('x')), TopKeys.parse("\u001b[15~x"), "a function key is dropped whole");
    assertEquals(List.of(Key.of(Kind.ESC), Key.ch('j')), TopKeys.parse("\u001bj"));
  }

  @Test
  void movesBetweenJobsWithArrowsAndJK() {
    TopView v = new TopView();
    press(v, "j");
    assertEquals(5L, v.selected());
    press(v, "\u001b[B\u001b[B");
    assertEquals(2L, v.selected(), "stops at the last job");
    press(v, "k");
    assertEquals(5L, v.selected());
    press(v, "g");
    assertEquals(4L, v.selected());
  }

  @Test
  void cancelAsksFirstAndOnlyYActs() {
    TopView v = new TopView();
    press(v, "c");
    assertEquals(TopView.Mode.CONFIRM, v.mode());
    assertEquals("Cancel job 4 (python)? [y/N] ", v.question());
    assertEquals(TopView.REDRAW, press(v, "n"));
    assertEquals("nothing changed", v.message());
    assertEquals(TopView.Mode.LIST, v.mode());
    press(v, "c");
    assertEquals(TopView.REDRAW, press(v, "\r"), "Enter is no yes");
    press(v, "c");
    assertEquals(new TopView.Act(TopView.Action.CANCEL, 4), press(v, "y"));
  }

  @Test
  void anActionThatCannotApplySaysWhyAndAsksNothing() {
    TopView v = new TopView();
    press(v, "h");
    assertEquals(TopView.Mode.LIST, v.mode());
    assertEquals("job 4 is RUNNING; only waiting jobs are held", v.message());
    press(v, "jj");
    press(v, "c");
    assertEquals("job 2 has ended (DONE); there is nothing to cancel", v.message());
    press(v, "k");
    press(v, "p");
    assertEquals("job 5 is WAITING; only running jobs are preempted", v.message());
    press(v, "r");
    assertEquals(new TopView.Act(TopView.Action.RELEASE, 5), press(v, "Y"));
  }

  @Test
  void enterOrLOpensTheLogAndQOrEscComesBackWhileQInTheListQuits() {
    TopView v = new TopView();
    press(v, "\r");
    assertEquals(TopView.Mode.LOG, v.mode());
    press(v, "q");
    assertEquals(TopView.Mode.LIST, v.mode());
    press(v, "l");
    assertEquals(TopView.Mode.LOG, v.mode());
    press(v, "\u001b");
    assertEquals(TopView.Mode.LIST, v.mode());
    assertEquals(TopView.QUIT, press(v, "q"));
    press(v, "?");
    assertEquals(TopView.Mode.HELP, v.mode());
    assertEquals(TopView.QUIT, press(v, "\u0003"), "Ctrl-C quits from anywhere");
  }

  @Test
  void theFilterIsTypedAppliedWithEnterAndMatchesAStateOrAGroup() {
    TopView v = new TopView();
    press(v, "fwaiting\u007f\u007f\u007fx");
    assertEquals(TopView.Mode.FILTER, v.mode());
    assertEquals("waitx", v.typing());
    press(v, "\u007fing\r");
    assertEquals("waiting", v.filter());
    assertTrue(v.shows(jobs.get(1), Set.of()));
    assertFalse(v.shows(jobs.get(0), Set.of()));
    Job grouped = Jobs.job(9, JobState.DONE, Jobs.spec(1, null, "sweep", null, "x"));
    assertTrue(TopView.matches("sweep", grouped, Set.of()));
    assertTrue(TopView.matches("live", jobs.get(0), Set.of()));
    assertFalse(TopView.matches("live", jobs.get(2), Set.of()));
    press(v, "\u001b");
    assertEquals("", v.filter(), "Esc in the list clears the filter");
  }

  @Test
  void theSelectionStaysOnItsJobWhenTheListChanges() {
    TopView v = new TopView();
    press(v, "j");
    v.settle(List.of(Jobs.job(7, JobState.WAITING), jobs.get(1)));
    assertEquals(5L, v.selected());
    v.settle(List.of(Jobs.job(7, JobState.WAITING)));
    assertEquals(7L, v.selected(), "a job that left the list gives the selection to the first");
  }
}
