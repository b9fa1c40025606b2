package dev.gq.host.proc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gq.core.proc.ProcInfo;
import org.junit.jupiter.api.Test;

class ProcStatTest {

  static String line(String pid, String comm, String state) {
    return pid + " (" + comm + ") " + state
        + " 1 4242 4243 0 -1 4194560 120 0 0 0 3 1 0 0 20 0 1 0 987654 9334784 800 18446744073709551615"
        + " 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0\n";
  }

  @Test
  void readsTheFieldsGqUses() {
    ProcInfo info = ProcStat.parse(line("4321", "sleep", "S"));
    assertEquals(new ProcInfo(4321, 1, 4242, 4243, 987654, 'S', "sleep"), info);
  }

  @Test
  void commandNameRunsToTheLastParenthesis() {
    ProcInfo info = ProcStat.parse(line("7", "a) b (c", "R"));
    assertEquals("a) b (c", info.comm());
    assertEquals(4242, info.pgid());
    assertEquals(987654, info.startTicks());
    assertEquals('R', info.state());
  }

  @Test
  void commandNameMayHoldSpacesAndLookLikeFields() {
    ProcInfo info = ProcStat.parse(line("8", "x) Z 9 9 9 ", "Z"));
    assertEquals("x) Z 9 9 9 ", info.comm());
    assertEquals(1, info.ppid());
    assertEquals(4243, info.sid());
    assertEquals(true, info.zombie());
  }

  @Test
  void emptyCommandNameIsAllowed() {
    assertEquals("", ProcStat.parse(line("9", "", "S")).comm());
  }

  @Test
  void truncatedOrGarbageLinesAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> ProcStat.parse(""));
    assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("12 (sh) S 1 2 3"));
    assertThrows(IllegalArgumentException.class, () -> ProcStat.parse("12 sh S 1 2 3"));
    assertThrows(IllegalArgumentException.class, () -> ProcStat.parse(line("x1", "sh", "S")));
    assertThrows(IllegalArgumentException.class, () -> ProcStat.parse(line("1", "sh", "S").replace(" 987654", " 98x")));
  }
}
