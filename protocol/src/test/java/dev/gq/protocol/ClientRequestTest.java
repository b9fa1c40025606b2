package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestTest {
  private static final String RUN = "{\"protocol\":2,\"type\":\"run\",\"request_id\":\"r-1\","
      + "\"argv\":[\"submit\",\"--\",\"python\",\"train.py\"],\"cwd\":\"/home/u\","
      + "\"env\":{\"HOME\":\"/home/u\",\"X\":\"a=b\\nc\"},\"stdin_tty\":true,"
      + "\"stdout_tty\":false,\"stderr_tty\":true,\"width\":120}";

  @Test
  void decodesARunRequest() throws Exception {
    ClientRequest.Run run = (ClientRequest.Run) ClientRequest.decode(RUN);
    assertEquals("r-1", run.requestId());
    assertEquals(List.of("submit", "--", "python", "train.py"), run.argv());
    assertEquals("/home/u", run.cwd());
    assertEquals(Map.of("HOME", "/home/u", "X", "a=b\nc"), run.env());
    assertEquals(true, run.stdinTty());
    assertEquals(false, run.stdoutTty());
    assertEquals(true, run.stderrTty());
    assertEquals(120, run.width());
  }

  @Test
  void runRequestsRoundTrip() throws Exception {
    ClientRequest.Run run = new ClientRequest.Run("id", List.of("ps", "é😀", ""), "/tmp",
        Map.of("A", "1", "EMPTY", "", "Q", "\"\\"), false, true, false, 80);
    assertEquals(run, ClientRequest.decode(run.toJson()));
  }

  @Test
  void theTerminalsHeightRoundTripsAndIsZeroWhenAnOlderClientLeavesItOut() throws Exception {
    ClientRequest.Run run = new ClientRequest.Run("id", List.of("ps"), "/tmp", Map.of(), false, true, false, 80, 24);
    assertEquals(run, ClientRequest.decode(run.toJson()));
    assertEquals(0, ((ClientRequest.Run) ClientRequest.decode(RUN)).height());
  }

  @Test
  void aTerminalLargerThanAnyIsTakenAsTheLargestOne() throws Exception {
    var run = new ClientRequest.Run("r", List.of("top"), "/", Map.of(), true, true, true, 65535, 65535, true);
    var back = (ClientRequest.Run) ClientRequest.decode(run.toJson());
    assertEquals(ScreenBounds.MAX_WIDTH, back.width());
    assertEquals(ScreenBounds.MAX_HEIGHT, back.height());
  }

  @Test
  void aClientThatCanShowAFullScreenSaysSoAndAnOlderOneCannot() throws Exception {
    ClientRequest.Run run = new ClientRequest.Run("id", List.of("top"), "/tmp", Map.of(), true, true, false, 80, 24, true);
    assertTrue(run.toJson().contains(",\"screen\":true"), run.toJson());
    assertEquals(run, ClientRequest.decode(run.toJson()));
    ClientRequest.Run old = new ClientRequest.Run("id", List.of("top"), "/tmp", Map.of(), true, true, false, 80, 24);
    assertFalse(old.toJson().contains("screen"), old.toJson());
    assertFalse(((ClientRequest.Run) ClientRequest.decode(old.toJson())).screen());
  }

  @Test
  void aClientThatCanStreamItsStandardInputSaysSoAndAnOlderOneCannot() throws Exception {
    ClientRequest.Run run = new ClientRequest.Run("id", List.of("mcp"), "/tmp", Map.of(), false, false, false, 80, 0, false, true);
    assertTrue(run.toJson().endsWith(",\"stdin_stream\":true}"), run.toJson());
    assertEquals(run, ClientRequest.decode(run.toJson()));
    ClientRequest.Run old = new ClientRequest.Run("id", List.of("mcp"), "/tmp", Map.of(), false, false, false, 80, 0, false);
    assertFalse(old.toJson().contains("stdin_stream"), old.toJson());
    assertFalse(((ClientRequest.Run) ClientRequest.decode(old.toJson())).stdinStream());
  }

  @Test
  void pingRoundTrips() throws Exception {
    assertEquals("{\"protocol\":2,\"type\":\"ping\"}", new ClientRequest.Ping().toJson());
    assertEquals(new ClientRequest.Ping(), ClientRequest.decode("{\"protocol\":2,\"type\":\"ping\"}"));
  }

  @Test
  void ttyFlagsAndWidthHaveDefaults() throws Exception {
    ClientRequest.Run run = (ClientRequest.Run) ClientRequest.decode("{\"protocol\":2,\"type\":\"run\","
        + "\"request_id\":\"x\",\"argv\":[],\"cwd\":\"/\",\"env\":{}}");
    assertEquals(false, run.stdinTty());
    assertEquals(80, run.width());
  }

  @Test
  void namesTheWrongMember() {
    assertMessage("invalid request: 'argv' must be a list of strings", RUN.replace("\"train.py\"", "3"));
    assertMessage("invalid request: 'argv' must be a list of strings", RUN.replace(
        "[\"submit\",\"--\",\"python\",\"train.py\"]", "\"submit\""));
    assertMessage("invalid request: 'env' must be an object of strings", RUN.replace("\"a=b\\nc\"", "null"));
    assertMessage("invalid request: 'cwd' must be a string", RUN.replace("\"/home/u\",\"env\"", "1,\"env\""));
    assertMessage("invalid request: 'cwd' must be an absolute path", RUN.replace("\"/home/u\",\"env\"", "\"rel\",\"env\""));
    assertMessage("invalid request: 'stdin_tty' must be true or false", RUN.replace("\"stdin_tty\":true", "\"stdin_tty\":1"));
    assertMessage("invalid request: 'width' must be an integer from 1 to 100000", RUN.replace("120", "0"));
    assertMessage("invalid request: 'width' must be an integer", RUN.replace("120", "\"wide\""));
    assertMessage("invalid request: 'request_id' is missing; it must be a string", RUN.replace("\"request_id\":\"r-1\",", ""));
    assertMessage("invalid request: unknown type 'jump'", "{\"protocol\":2,\"type\":\"jump\"}");
    assertMessage("invalid request: 'protocol' is missing; it must be an integer", "{\"type\":\"ping\"}");
    assertMessage("invalid request: not a JSON object", "\"ping\"");
  }

  @Test
  void refusesAnotherProtocolVersion() {
    ProtocolException e = assertThrows(ProtocolException.class,
        () -> ClientRequest.decode("{\"protocol\":1,\"type\":\"ping\"}"));
    assertEquals("the client speaks protocol 1 and this daemon 2; "
        + "restart the daemon so both run the same gq version", e.getMessage());
  }

  @Test
  void rejectsMalformedAndTruncatedLines() {
    for (int i = 0; i < RUN.length(); i++) {
      String cut = RUN.substring(0, i);
      assertThrows(ProtocolException.class, () -> ClientRequest.decode(cut), cut);
    }
    assertThrows(ProtocolException.class, () -> ClientRequest.decode(RUN + "x"));
  }

  private static void assertMessage(String expected, String line) {
    ProtocolException e = assertThrows(ProtocolException.class, () -> ClientRequest.decode(line));
    assertEquals(expected, e.getMessage());
  }
}
