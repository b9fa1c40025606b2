package dev.gq.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class StdinTextTest {
  @Test
  void newFramesEncodeAsDocumentedAndRoundTrip() throws Exception {
    assertEquals("{\"t\":\"stdin_request\"}", new Frame.StdinRequest().toJson());
    assertEquals("{\"t\":\"keepalive\"}", new Frame.Keepalive().toJson());
    assertEquals("{\"t\":\"stdin\",\"s\":\"a\\nb\"}", new Frame.Stdin("a\nb", null).toJson());
    assertEquals("{\"t\":\"stdin\",\"s\":null,\"error\":\"too big\"}", new Frame.Stdin(null, "too big").toJson());
    for (Frame f : List.of(new Frame.StdinRequest(), new Frame.Keepalive(), new Frame.Stdin("x\u0000\"😀", null),
        new Frame.Stdin(null, "e"))) {
      assertEquals(f, Frame.decode(f.toJson()));
    }
  }

  @Test
  void writtenStdinDecodesToTheSameTextAndHasTheAnnouncedLength() throws Exception {
    String text = "line 1\n\"quoted\" back\\slash\ttab\r\u0001\u001f é 😀 \u007f end";
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    List<byte[]> chunks = StdinText.readAll(new ByteArrayInputStream(bytes), 1 << 20);
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    StdinText.write(Channels.newChannel(sink), chunks);
    String line = sink.toString(StandardCharsets.UTF_8);
    assertEquals('\n', line.charAt(line.length() - 1));
    assertEquals(StdinText.frameLength(chunks), sink.size() - 1);
    assertEquals(new Frame.Stdin(text, null), Frame.decode(line.substring(0, line.length() - 1)));
  }

  @Test
  void readingStopsPastTheLimit() throws Exception {
    assertNull(StdinText.readAll(new ByteArrayInputStream(new byte[3 << 20]), 2 << 20));
    assertEquals(3, StdinText.readAll(new ByteArrayInputStream(new byte[(2 << 20) + 5]), 3 << 20).size());
  }

  @Test
  void longInputIsWrittenInPieces() throws Exception {
    byte[] big = new byte[200_000];
    java.util.Arrays.fill(big, (byte) '"');
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    StdinText.write(Channels.newChannel(sink), List.of(big));
    assertEquals(2 * big.length + "{\"t\":\"stdin\",\"s\":\"\"}\n".length(), sink.size());
  }
}
