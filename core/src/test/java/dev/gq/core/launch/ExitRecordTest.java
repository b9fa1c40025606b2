package dev.gq.core.launch;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.launch.ExitRecord.Kind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ExitRecordTest {

  @Test
  void exitLinesParse() {
    assertEquals(Optional.of(ExitRecord.exited(0)), ExitRecord.parse("exit 0\n"));
    assertEquals(Optional.of(ExitRecord.exited(3)), ExitRecord.parse("exit 3"));
    assertEquals(Optional.of(ExitRecord.exited(255)), ExitRecord.parse("  exit 255  \n"));
  }

  @Test
  void signalLinesParse() {
    ExitRecord r = ExitRecord.parse("signal 9\n").orElseThrow();
    assertEquals(Kind.SIGNALLED, r.kind());
    assertEquals(9, r.code());
  }

  @Test
  void execErrorKeepsItsWholeText() {
    ExitRecord r = ExitRecord.parse("exec-error cannot run 'x y': No such file or directory\n").orElseThrow();
    assertEquals(Kind.EXEC_FAILED, r.kind());
    assertEquals("cannot run 'x y': No such file or directory", r.text());
    assertEquals(127, r.exitCode());
  }

  @Test
  void exitCodeOfASignalIs128PlusTheSignal() {
    assertEquals(129, ExitRecord.signalled(1).exitCode());
    assertEquals(137, ExitRecord.signalled(9).exitCode());
    assertEquals(143, ExitRecord.signalled(15).exitCode());
    assertEquals(0, ExitRecord.exited(0).exitCode());
    assertEquals(42, ExitRecord.exited(42).exitCode());
  }

  @Test
  void renderedRecordsParseBack() {
    for (ExitRecord r : new ExitRecord[] {ExitRecord.exited(0), ExitRecord.exited(200), ExitRecord.signalled(11),
        ExitRecord.execFailed("cannot run 'a': Permission denied")})
      assertEquals(Optional.of(r), ExitRecord.parse(r.render() + "\n"));
  }

  @Test
  void emptyOrTruncatedContentIsNoRecord() {
    for (String s : new String[] {"", "   ", "\n", "exit", "exit ", "exit\n", "signal", "exec-error", "exec-error   \n", "exi"})
      assertEquals(Optional.empty(), ExitRecord.parse(s), "'" + s + "'");
  }

  @Test
  void garbageIsNoRecord() {
    for (String s : new String[] {"exit abc", "quit 3", "EXIT 3", "exit 3 4", "exit 3.0", "exit 0x10", "signal SIGKILL",
        "\0\0\0\0", "exit 1\nexit 2", "{\"exit\": 0}"})
      assertEquals(Optional.empty(), ExitRecord.parse(s), "'" + s + "'");
  }

  @Test
  void negativeNumbersAreNoRecord() {
    for (String s : new String[] {"exit -1", "signal -9", "exit -0"})
      assertEquals(Optional.empty(), ExitRecord.parse(s), s);
  }

  @Test
  void numbersTheShimCannotWriteAreNoRecord() {
    for (String s : new String[] {"exit 256", "exit 99999999999", "exit 2147483648", "signal 0", "signal 65",
        "signal 2147483647", "exit +3", "exit \u0663"})
      assertEquals(Optional.empty(), ExitRecord.parse(s), s);
  }

  @Test
  void aRecordMayAddThatTheJobLeftNothingBehind() {
    assertEquals(Optional.of(ExitRecord.exited(0)), ExitRecord.parse("exit 0\nalone\n"));
    assertEquals(Optional.of(ExitRecord.signalled(15)), ExitRecord.parse("signal 15\nalone\n"));
    assertTrue(ExitRecord.leftNothing("exit 0\nalone\n"));
    assertTrue(ExitRecord.leftNothing("exec-error cannot run 'x': No such file or directory\nalone\n"));
    assertFalse(ExitRecord.leftNothing("exit 0\n"));
    assertFalse(ExitRecord.leftNothing("alone\n"));
    assertFalse(ExitRecord.leftNothing("exit 256\nalone\n"));
    for (String s : new String[] {"exit 0\nalone\nalone", "exit 0\nalone more", "exit 0\nnot alone", "alone\nexit 0"})
      assertEquals(Optional.empty(), ExitRecord.parse(s), "'" + s + "'");
  }

  @Test
  void aRecordMayNameTheShimsPidAndOldRecordsWithoutItStillRead() {
    assertEquals(Optional.of(ExitRecord.exited(0).withPid(4321L)), ExitRecord.parse("exit 0\npid 4321\n"));
    assertEquals(Optional.of(ExitRecord.signalled(15).withPid(7L)), ExitRecord.parse("signal 15\npid 7\nalone\n"));
    assertEquals(Optional.of(ExitRecord.execFailed("cannot run 'x': No such file or directory").withPid(4194304L)),
        ExitRecord.parse("exec-error cannot run 'x': No such file or directory\npid 4194304\nalone\n"));
    assertTrue(ExitRecord.leftNothing("exit 0\npid 4321\nalone\n"));
    assertFalse(ExitRecord.leftNothing("exit 0\npid 4321\n"));
    assertNull(ExitRecord.parse("exit 3\n").orElseThrow().pid(), "a record written before the pid line");
    assertNull(ExitRecord.parse("exit 3\nalone\n").orElseThrow().pid());
    for (String s : new String[] {"exit 0\npid", "exit 0\npid 0", "exit 0\npid -1", "exit 0\npid 4194305",
        "exit 0\npid 12345678901", "exit 0\npid 1\npid 1", "exit 0\npid x", "exit 0\npid 0x10", "pid 5\nexit 0",
        "exit 0\npid +5"})
      assertEquals(Optional.empty(), ExitRecord.parse(s), "'" + s + "'");
  }
}
