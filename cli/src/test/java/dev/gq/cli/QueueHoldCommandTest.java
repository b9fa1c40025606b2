package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;

class DaemonPauseCommandTest {
  @Test
  void pauseAndResumeTheQueueOrOneGroup() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("daemon", "pause"), io, api));
    assertEquals(0, Gq.run(List.of("daemon", "resume", "--group", "sweep"), io, api));
    assertEquals(List.of("pause:null", "resume:sweep"), api.pauses);
    assertTrue(io.stdout().contains("Queue paused."), io.stdout());
    assertTrue(io.stdout().contains("Released the hold on group sweep."), io.stdout());
  }

  @Test
  void holdAndReleaseTakeAWholeGroupAsDaemonPauseAndResumeDo() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("hold", "--group", "sweep"), io, api));
    assertEquals(0, Gq.run(List.of("release", "--group", "sweep"), io, api));
    assertEquals(List.of("pause:sweep", "resume:sweep"), api.pauses);
  }

  @Test
  void holdNeedsJobsOrAGroupButNotBoth() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(2, Gq.run(List.of("hold"), io, api));
    assertTrue(io.stderr().contains("name the jobs to hold, or --group G"), io.stderr());
    assertEquals(2, Gq.run(List.of("release", "3", "--group", "g"), io, api));
    assertTrue(io.stderr().contains("name jobs or --group, not both"), io.stderr());
    assertTrue(api.pauses.isEmpty());
  }

  @Test
  void restartIsAStopAsFarAsTheDaemonIsConcerned() {
    FakeApi api = new FakeApi();
    FakeIo io = new FakeIo(java.nio.file.Path.of("/tmp"));
    assertEquals(0, Gq.run(List.of("daemon", "restart"), io, api));
    assertTrue(api.shutdown);
  }
}
