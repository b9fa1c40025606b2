package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueueHoldCommandTest {
  @Test
  void holdAndReleaseTakeTheWholeQueueWithAll() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("hold", "--all"), io, api));
    assertEquals(0, Gq.run(List.of("release", "--all"), io, api));
    assertEquals(List.of("hold:null", "release:null"), api.queueHolds);
    assertTrue(io.stdout().contains("Queue held."), io.stdout());
    assertTrue(io.stdout().contains("Released the hold on the queue."), io.stdout());
    assertEquals("", io.stderr());
  }

  @Test
  void daemonPauseAndResumeStillWorkAndNameTheNewCommandOnStderr() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("daemon", "pause"), io, api));
    assertEquals(0, Gq.run(List.of("daemon", "resume", "--group", "sweep"), io, api));
    assertEquals(List.of("hold:null", "release:sweep"), api.queueHolds);
    assertEquals("'gq daemon pause' is now 'gq hold --all'; it does the same\n"
        + "'gq daemon resume' is now 'gq release --group sweep'; it does the same\n", io.stderr());
    assertTrue(io.stdout().contains("Released the hold on group sweep."), io.stdout());
  }

  @Test
  void theEarlierNamesAreNotInTheHelp() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("daemon", "--help"), io, api));
    assertFalse(io.stdout().contains("pause") || io.stdout().contains("resume"), io.stdout());
  }

  @Test
  void holdAndReleaseTakeAWholeGroup() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("hold", "--group", "sweep"), io, api));
    assertEquals(0, Gq.run(List.of("release", "--group", "sweep"), io, api));
    assertEquals(List.of("hold:sweep", "release:sweep"), api.queueHolds);
  }

  @Test
  void holdNeedsJobsAGroupOrAllAndOnlyOneOfThem() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(2, Gq.run(List.of("hold"), io, api));
    assertTrue(io.stderr().contains("name the jobs to hold, or --group G, or --all for the whole queue"), io.stderr());
    assertEquals(2, Gq.run(List.of("release", "3", "--group", "g"), io, api));
    assertTrue(io.stderr().contains("name jobs, --group or --all, one of them"), io.stderr());
    assertEquals(2, Gq.run(List.of("hold", "--all", "--group", "g"), io, api));
    assertTrue(api.queueHolds.isEmpty());
  }

  @Test
  void restartIsAStopAsFarAsTheDaemonIsConcerned() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("daemon", "restart"), io, api));
    assertTrue(api.shutdown);
  }
}
