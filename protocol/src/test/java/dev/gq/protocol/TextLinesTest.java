package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextLinesTest {
  private static byte[] bytes(ByteBuffer b) {
    return Arrays.copyOfRange(b.array(), b.position(), b.limit());
  }

  private static byte[] expected(Frame f) {
    return (f.toJson() + "\n").getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aLineIsTheFramesJsonAndANewlineInUtf8() {
    String[] texts = {"", "plain\n", "q\"b\\s/\t\r\b\f\u0000\u001b\u007f", "caf\u00e9 \u2026 \u202e \ud83d\ude00",
        "lone \ud800 and \udc00 halves, and one at the end \ud83d"};
    for (String t : texts) {
      assertArrayEquals(expected(Frame.out(t)), bytes(TextLines.line("out", t)), t);
      assertArrayEquals(expected(Frame.err(t)), bytes(TextLines.line("err", t)), t);
    }
  }

  @Test
  void anyTextIsWrittenAsTheFramesJson() {
    Random random = new Random(5);
    char[] pool = {'a', ' ', '\n', '"', '\\', '\u0001', '\u007f', '\u00e9', '\u0800', '\uffff', '\ud83d', '\ude00', '\ud800', '\udfff'};
    for (int round = 0; round < 2000; round++) {
      char[] cs = new char[random.nextInt(40)];
      for (int i = 0; i < cs.length; i++) cs[i] = random.nextInt(3) == 0 ? pool[random.nextInt(pool.length)] : (char) random.nextInt(0x10000);
      String t = new String(cs);
      assertArrayEquals(expected(Frame.out(t)), bytes(TextLines.line("out", t)), t);
    }
  }

  @Test
  void aLineLongerThanTheRoomGivenGrowsAndAShortOneIsMadeInIt() {
    byte[] room = new byte[200];
    String escapes = "\u0001\"\ud800".repeat(100);
    assertArrayEquals(expected(Frame.out(escapes)), bytes(TextLines.line("out", escapes, room)));
    ByteBuffer shortLine = TextLines.line("out", "ok\n", room);
    assertSame(room, shortLine.array());
    assertArrayEquals(expected(Frame.out("ok\n")), bytes(shortLine));
  }

  @Test
  void aLineReadsBackAsItsFrame() throws Exception {
    String t = "JOB  STATE\n1    RUNNING \u2026 \ud83d\ude00\n";
    String line = new String(bytes(TextLines.line("out", t)), StandardCharsets.UTF_8);
    assertEquals(Frame.out(t), Frame.decode(line.substring(0, line.length() - 1)));
  }
}
