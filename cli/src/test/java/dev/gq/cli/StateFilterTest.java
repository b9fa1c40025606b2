package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobState;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class StateFilterTest {
  @Test
  void commasRepeatsCaseAndSqueuesShortFormsAllName() {
    assertEquals(EnumSet.of(JobState.RUNNING, JobState.WAITING), StateFilter.parse(List.of("RUNNING,WAITING")));
    assertEquals(EnumSet.of(JobState.RUNNING, JobState.WAITING), StateFilter.parse(List.of("r", "PD")));
    assertEquals(EnumSet.of(JobState.DONE, JobState.FAILED, JobState.CANCELLED, JobState.TIMEOUT),
        StateFilter.parse(List.of("CD,F", "ca,to")));
    assertEquals(EnumSet.of(JobState.FAILED), StateFilter.parse(List.of("failed")));
    assertTrue(StateFilter.parse(List.of()).isEmpty());
  }

  @Test
  void aMisspeltStateGetsTheClosestNameAndAnUnknownOneTheList() {
    UsageException typo = assertThrows(UsageException.class, () -> StateFilter.parse(List.of("RUNING")));
    assertEquals("unknown state 'RUNING'; did you mean RUNNING?", typo.getMessage());
    UsageException unknown = assertThrows(UsageException.class, () -> StateFilter.parse(List.of("bogus")));
    assertTrue(unknown.getMessage().startsWith("unknown state 'bogus'; states: WAITING, STARTING, RUNNING"), unknown.getMessage());
    UsageException held = assertThrows(UsageException.class, () -> StateFilter.parse(List.of("HELD")));
    assertTrue(held.getMessage().contains("--state WAITING"), held.getMessage());
    assertThrows(UsageException.class, () -> StateFilter.parse(List.of("RUNNING,")));
    UsageException escaped = assertThrows(UsageException.class, () -> StateFilter.parse(List.of("\u001b[31m")));
    assertFalse(escaped.getMessage().contains("\u001b"));
  }

  @Test
  void psTakesTheListAndTheShortOptionAndSendsThoseStates() {
    Cli cli = new Cli(Path.of("/tmp"));
    assertEquals(0, cli.run("ps", "-t", "R,PD").code());
    assertEquals(EnumSet.of(JobState.RUNNING, JobState.WAITING), cli.api.queries.getLast().states());
    assertEquals(0, cli.run("ps", "--state", "running,waiting").code());
    assertEquals(EnumSet.of(JobState.RUNNING, JobState.WAITING), cli.api.queries.getLast().states());
    Cli.Result typo = cli.run("ps", "--state", "WAITNG");
    assertEquals(2, typo.code());
    assertTrue(typo.err().startsWith("gq: unknown state 'WAITNG'; did you mean WAITING?\n"), typo.err());
  }

  @Test
  void cleanTakesTheSameNamesAndStillRefusesALiveState() {
    Cli cli = new Cli(Path.of("/tmp"));
    Cli.Result live = cli.run("clean", "--state", "F,R", "--yes");
    assertEquals(2, live.code());
    assertTrue(live.err().contains("--state RUNNING is not an ended state"), live.err());
  }
}
