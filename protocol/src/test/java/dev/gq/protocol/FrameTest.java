package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class FrameTest {

  @Test
  void encodesEachFrameTypeAsDocumented() {
    assertEquals("{\"t\":\"out\",\"s\":\"hello\\n\"}", Frame.out("hello\n").toJson());
    assertEquals("{\"t\":\"err\",\"s\":\"gq: no\\n\"}", Frame.err("gq: no\n").toJson());
    assertEquals("{\"t\":\"prompt\",\"s\":\"Delete? [y/N] \"}", Frame.prompt("Delete? [y/N] ").toJson());
    assertEquals("{\"t\":\"answer\",\"s\":\"y\"}", Frame.answer("y").toJson());
    assertEquals("{\"t\":\"answer\",\"s\":null}", Frame.answer(null).toJson());
    assertEquals("{\"t\":\"exit\",\"code\":3}", Frame.exit(3).toJson());
    assertEquals("{\"t\":\"pong\",\"pid\":1234,\"version\":\"0.1.0\",\"protocol\":2}",
        Frame.pong(1234, "0.1.0").toJson());
  }

  @Test
  void everyFrameRoundTrips() throws Exception {
    List<Frame> frames = List.of(Frame.out("a\u0000b\"😀"), Frame.err(""), Frame.prompt("q?"),
        Frame.answer("yes"), Frame.answer(null), Frame.exit(-1), Frame.exit(255),
        new Frame.Pong(Long.MAX_VALUE, "v\"1", 1));
    for (Frame f : frames) assertEquals(f, Frame.decode(f.toJson()));
  }

  @Test
  void theFullScreenFramesAreAsDocumentedAndRoundTrip() throws Exception {
    assertEquals("{\"t\":\"screen\"}", new Frame.Screen().toJson());
    assertEquals("{\"t\":\"key\",\"s\":\"\\u001b[A\"}", new Frame.Key("\u001b[A").toJson());
    assertEquals("{\"t\":\"size\",\"width\":200,\"height\":50}", new Frame.Size(200, 50).toJson());
    for (Frame f : List.<Frame>of(new Frame.Screen(), new Frame.Key("q"), new Frame.Size(80, 24)))
      assertEquals(f, Frame.decode(f.toJson()));
    assertThrows(ProtocolException.class, () -> Frame.decode("{\"t\":\"size\",\"width\":0,\"height\":24}"));
    assertThrows(ProtocolException.class, () -> Frame.decode("{\"t\":\"key\"}"));
  }

  @Test
  void aScreenSizeLargerThanAnyTerminalIsTakenAsTheLargestOne() throws Exception {
    assertEquals(new Frame.Size(10, ScreenBounds.MAX_HEIGHT), Frame.decode("{\"t\":\"size\",\"width\":10,\"height\":65535}"));
    assertEquals(new Frame.Size(ScreenBounds.MAX_WIDTH, 24), Frame.decode("{\"t\":\"size\",\"width\":65535,\"height\":24}"));
  }

  @Test
  void stdoutBytesTravelAsBase64AndComeBackExactly() throws Exception {
    byte[] bytes = new byte[256];
    for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) i;
    String json = new Frame.OutBytes(bytes).toJson();
    assertEquals("{\"t\":\"outb\",\"b\":\"" + java.util.Base64.getEncoder().encodeToString(bytes) + "\"}", json);
    Frame back = Frame.decode(json);
    assertInstanceOf(Frame.OutBytes.class, back);
    org.junit.jupiter.api.Assertions.assertArrayEquals(bytes, ((Frame.OutBytes) back).bytes());
    assertEquals("{\"t\":\"outb\",\"b\":\"\"}", new Frame.OutBytes(new byte[0]).toJson());
  }

  @Test
  void theStreamedStandardInputFramesAreAsDocumentedAndCarryAnyBytes() throws Exception {
    assertEquals("{\"t\":\"stdin_stream\"}", new Frame.StdinStream().toJson());
    assertEquals("{\"t\":\"stdin_end\"}", new Frame.StdinEnd().toJson());
    assertEquals("{\"t\":\"inb\",\"b\":\"/wA=\"}", new Frame.InBytes(new byte[] {(byte) 0xff, 0}).toJson());
    assertEquals(new Frame.StdinStream(), Frame.decode("{\"t\":\"stdin_stream\"}"));
    assertEquals(new Frame.StdinEnd(), Frame.decode("{\"t\":\"stdin_end\"}"));
    Frame back = Frame.decode("{\"t\":\"inb\",\"b\":\"/wA=\"}");
    org.junit.jupiter.api.Assertions.assertArrayEquals(new byte[] {(byte) 0xff, 0}, ((Frame.InBytes) back).bytes());
    assertThrows(ProtocolException.class, () -> Frame.decode("{\"t\":\"inb\",\"b\":\"*\"}"));
    assertThrows(ProtocolException.class, () -> Frame.decode("{\"t\":\"inb\"}"));
  }

  @Test
  void stdoutBytesThatAreNotBase64AreRefused() {
    ProtocolException e = assertThrows(ProtocolException.class, () -> Frame.decode("{\"t\":\"outb\",\"b\":\"*\"}"));
    assertEquals("invalid frame: 'b' is not base64", e.getMessage());
  }

  @Test
  void unknownFrameTypesAreKeptNotRejected() throws Exception {
    String line = "{\"t\":\"progress\",\"pct\":50}";
    Frame f = Frame.decode(line);
    assertEquals(new Frame.Unknown("progress", line), f);
    assertEquals(line, f.toJson());
  }

  @Test
  void extraMembersAreIgnored() throws Exception {
    assertEquals(Frame.exit(0), Frame.decode("{\"t\":\"exit\",\"code\":0,\"later\":true}"));
  }

  @Test
  void wrongMembersGiveOneLineMessages() {
    assertMessage("invalid frame: 's' must be a string", "{\"t\":\"out\",\"s\":5}");
    assertMessage("invalid frame: 's' is missing; it must be a string", "{\"t\":\"err\"}");
    assertMessage("invalid frame: 't' is missing; it must be a string", "{\"s\":\"x\"}");
    assertMessage("invalid frame: 'code' must be an integer", "{\"t\":\"exit\",\"code\":1.5}");
    assertMessage("invalid frame: 'code' must be an integer from -2147483648 to 2147483647",
        "{\"t\":\"exit\",\"code\":4294967296}");
    assertMessage("invalid frame: 's' must be a string or null", "{\"t\":\"answer\",\"s\":[]}");
    assertMessage("invalid frame: not a JSON object", "[1]");
    assertMessage("invalid frame: invalid JSON at offset 5: unexpected end of input", "{\"t\":");
  }

  private static void assertMessage(String expected, String line) {
    ProtocolException e = assertThrows(ProtocolException.class, () -> Frame.decode(line));
    assertEquals(expected, e.getMessage());
  }

  @Test
  void textFramesNeedText() {
    assertThrows(NullPointerException.class, () -> Frame.out(null));
    assertInstanceOf(Frame.Answer.class, Frame.answer(null));
  }
}
