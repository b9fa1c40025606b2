package dev.gq.core.proc;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobProcessesTest {
  private static final long SELF = 1;

  private static ProcInfo proc(long pid, long pgid, long sid, char state) {
    return new ProcInfo(pid, 1, pgid, sid, 1000 + pid, state, "bash");
  }

  private static List<Long> pids(List<ProcInfo> all) {
    return all.stream().map(ProcInfo::pid).toList();
  }

  @Test
  void aProcessOfTheSessionOrTheGroupIsLeftAndEnvironmentsAreNotRead() {
    List<Long> read = new ArrayList<>();
    List<ProcInfo> all = List.of(proc(50, 50, 50, 'S'), proc(120, 130, 100, 'S'));
    assertTrue(JobProcesses.anyLeft(100, 100, all, pids(all), SELF, pid -> read.add(pid)));
    assertEquals(List.of(), read, "the session already decides");
    List<ProcInfo> group = List.of(proc(140, 100, 90, 'R'));
    assertTrue(JobProcesses.anyLeft(100, 100, group, pids(group), SELF, pid -> false));
  }

  @Test
  void aDetachedProcessCarryingTheJobsTagIsLeft() {
    // pid 300 ran setsid: its own session and group, but the job's GQ_JOB_TAG
    List<ProcInfo> all = List.of(proc(50, 50, 50, 'S'), proc(300, 300, 300, 'S'));
    assertTrue(JobProcesses.anyLeft(100, 100, all, pids(all), SELF, pid -> pid == 300));
    assertFalse(JobProcesses.anyLeft(100, 100, all, pids(all), SELF, pid -> false));
  }

  @Test
  void zombiesOfTheSessionAreGone() {
    List<ProcInfo> all = List.of(proc(100, 100, 100, 'Z'), proc(101, 100, 100, 'X'));
    assertFalse(JobProcesses.anyLeft(100, 100, all, pids(all), SELF, pid -> false));
  }

  @Test
  void theDaemonItselfNeverCountsEvenWhenItCarriesTheTag() {
    assertFalse(JobProcesses.anyCarryingTag(Set.of(SELF), SELF, pid -> true));
    assertTrue(JobProcesses.anyCarryingTag(Set.of(SELF, 7L), SELF, pid -> true));
  }
}
