package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ClientCallTest {

  private static ClientCall of(Map<String, String> env, String... args) {
    return ClientCall.of(args, env, "/home/u/proj");
  }

  @Test
  void dropsTheLauncherVariablesAndKeepsTheRest() {
    Map<String, String> env = new HashMap<>(Map.of("GQ_CLIENT_TTY_IN", "1", "GQ_CLIENT_TTY_OUT", "0",
        "GQ_CLIENT_TTY_ERR", "1", "GQ_CLIENT_COLUMNS", "99", "PATH", "/bin", "GQ_DATA_DIR", "/d",
        "EMPTY", ""));
    ClientCall inv = of(env, "ps");
    assertEquals(Map.of("PATH", "/bin", "GQ_DATA_DIR", "/d", "EMPTY", ""), inv.env());
    assertTrue(inv.stdinTty());
    assertFalse(inv.stdoutTty());
    assertTrue(inv.stderrTty());
    assertEquals(99, inv.width());
    assertEquals(List.of("ps"), inv.argv());
    assertEquals("/home/u/proj", inv.cwd());
  }

  @Test
  void daemonStopWaitsForTheExitUnlessToldNoWaitLastOneCounting() {
    assertTrue(of(Map.of(), "daemon", "stop").waitsForExit());
    assertTrue(of(Map.of(), "daemon", "stop", "--wait").waitsForExit());
    assertFalse(of(Map.of(), "daemon", "stop", "--no-wait").waitsForExit());
    assertTrue(of(Map.of(), "daemon", "stop", "--no-wait", "--wait").waitsForExit());
    assertTrue(of(Map.of(), "daemon", "stop", "--", "--no-wait").waitsForExit());
  }

  @Test
  void widthComesFromTheLauncherThenColumnsThenDefaults() {
    assertEquals(120, ClientCall.width(Map.of("GQ_CLIENT_COLUMNS", "120", "COLUMNS", "50")));
    assertEquals(50, ClientCall.width(Map.of("GQ_CLIENT_COLUMNS", "", "COLUMNS", "50")));
    assertEquals(50, ClientCall.width(Map.of("GQ_CLIENT_COLUMNS", "abc", "COLUMNS", "50")));
    assertEquals(80, ClientCall.width(Map.of()));
    assertEquals(80, ClientCall.width(Map.of("COLUMNS", "0")));
    assertEquals(80, ClientCall.width(Map.of("COLUMNS", "-5")));
    assertEquals(80, ClientCall.width(Map.of("COLUMNS", "100001")));
    assertEquals(80, ClientCall.width(Map.of("COLUMNS", "99999999999")));
  }

  @Test
  void heightComesFromTheLauncherThenLinesAndOnlyForATerminal() {
    assertEquals(24, ClientCall.height(Map.of("GQ_CLIENT_LINES", "24", "LINES", "50")));
    assertEquals(50, ClientCall.height(Map.of("GQ_CLIENT_LINES", "", "LINES", "50")));
    assertEquals(0, ClientCall.height(Map.of()));
    assertEquals(0, ClientCall.of(new String[] {"ps"}, Map.of("GQ_CLIENT_TTY_OUT", "0", "GQ_CLIENT_LINES", "24"), "/").height());
    assertEquals(24, ClientCall.of(new String[] {"ps"}, Map.of("GQ_CLIENT_TTY_OUT", "1", "GQ_CLIENT_LINES", "24"), "/").height());
  }

  @Test
  void aDeletedWorkingDirectoryFromTheLauncherIsTheCwdTheDaemonSees() {
    Map<String, String> env = new HashMap<>(Map.of("GQ_CLIENT_CWD_GONE", "/tmp/gone", "PATH", "/bin"));
    ClientCall inv = ClientCall.of(new String[] {"-g", "0", "true"}, env, "/");
    assertEquals("/tmp/gone", inv.cwd());
    assertEquals(Map.of("PATH", "/bin"), inv.env());
    assertEquals("/work", ClientCall.of(new String[] {"ps"}, Map.of("GQ_CLIENT_CWD_GONE", ""), "/work").cwd());
  }

  @Test
  void ttyFlagsAreOneOrZero() {
    assertTrue(ClientCall.tty("1"));
    assertFalse(ClientCall.tty("0"));
  }

  @Test
  void recognisesDaemonActionsOnly() {
    Map<String, String> env = Map.of();
    assertEquals("status", of(env, "daemon", "status").daemonAction());
    assertEquals("stop", of(env, "--json", "daemon", "stop").daemonAction());
    assertEquals("start", of(env, "daemon", "-v", "start").daemonAction());
    assertEquals("", of(env, "daemon").daemonAction());
    assertNull(of(env, "ps").daemonAction());
    assertNull(of(env).daemonAction());
    assertNull(of(env, "submit", "daemon", "status").daemonAction());
    assertNull(of(env, "--", "daemon", "status").daemonAction());
    assertNull(of(env, "daemon", "stop", "--help").daemonAction(), "help is the daemon's to print; nothing stops");
    assertNull(of(env, "daemon", "-h", "restart").daemonAction());
  }

  @Test
  void followingALogResumesUnderEitherName() {
    Map<String, String> env = Map.of();
    assertTrue(of(env, "logs", "-f", "3").resumable());
    assertTrue(of(env, "log", "--follow", "3").resumable());
    assertTrue(of(env, "log", "-f", "3").followsLog());
    assertFalse(of(env, "log", "3").resumable());
    assertTrue(of(env, "wait", "3").resumable());
    assertFalse(of(env, "ps").resumable());
  }

  @Test
  void buildsTheRunRequest() {
    ClientCall inv = of(Map.of("GQ_CLIENT_TTY_IN", "0", "GQ_CLIENT_TTY_OUT", "1",
        "GQ_CLIENT_TTY_ERR", "0", "A", "b"), "submit", "--", "echo", "hi there");
    var run = inv.request("id-1");
    assertEquals("id-1", run.requestId());
    assertEquals(List.of("submit", "--", "echo", "hi there"), run.argv());
    assertEquals(Map.of("A", "b"), run.env());
    assertTrue(run.stdoutTty());
  }

  @Test
  void requestIdsAreRandomVersion4Uuids() {
    String a = RequestIds.next();
    String b = RequestIds.next();
    assertFalse(a.equals(b));
    assertTrue(a.matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"), a);
  }

  @Test
  void onlyAFollowedLogOfANamedJobWithoutLastLinesIsSentAgain() {
    Map<String, String> env = Map.of();
    assertTrue(of(env, "logs", "-f", "7").resumable());
    assertTrue(of(env, "--verbose", "logs", "7", "--follow").followsLog());
    assertFalse(of(env, "logs", "-f").resumable(), "the newest job may be another one by then");
    assertFalse(of(env, "logs", "-f", "-n", "20", "7").resumable(), "the last 20 lines start elsewhere by then");
    assertFalse(of(env, "logs", "-f", "--lines=20", "7").resumable());
    assertFalse(of(env, "logs", "-fn20", "7").resumable());
    assertFalse(of(env, "logs", "-n", "20").followsLog());
    assertFalse(of(env, "logs", "7").resumable());
    assertTrue(of(env, "wait", "7").resumable());
  }
}
