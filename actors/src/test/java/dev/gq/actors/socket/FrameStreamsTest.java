package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text a command writes reaches its client in frames of at most 64 KiB, however it was written. */
class FrameStreamsTest {
  @Test
  void oneLongStringPrintedAtOnceIsSentInFramesOfAtMostSixtyFourKib() {
    List<Frame> sent = new ArrayList<>();
    PrintWriter out = new PrintWriter(new FrameStreams.Text(sent::add, false), false);
    String text = "x".repeat(65535) + "\uD83D\uDE00" + "y".repeat(300_000);
    out.print(text);
    out.flush();
    StringBuilder back = new StringBuilder();
    for (Frame f : sent) {
      String s = ((Frame.Out) f).text();
      assertTrue(s.length() <= 65536, "a frame of " + s.length() + " chars");
      assertTrue(!Character.isHighSurrogate(s.charAt(s.length() - 1)), "a frame ends inside a character");
      back.append(s);
    }
    assertEquals(text, back.toString());
    assertTrue(sent.size() >= 6, sent.size() + " frames");
  }
}
