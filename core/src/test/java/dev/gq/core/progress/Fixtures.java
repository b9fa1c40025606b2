package dev.gq.core.progress;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The recorded logs and files under test resources {@code progress/}. */
final class Fixtures {
  private Fixtures() {}

  static byte[] bytes(String name) {
    try (InputStream in = Fixtures.class.getResourceAsStream("/progress/" + name)) {
      if (in == null) throw new IllegalArgumentException("no fixture " + name);
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String text(String name) {
    return new String(bytes(name), StandardCharsets.UTF_8);
  }

  /** The fixture up to and including the first occurrence of {@code marker}'s segment. */
  static byte[] upTo(String name, String marker) {
    String all = text(name);
    int at = all.indexOf(marker);
    if (at < 0) throw new IllegalArgumentException(marker + " not in " + name);
    int end = all.indexOf('\r', at);
    int lf = all.indexOf('\n', at);
    if (end < 0 || (lf >= 0 && lf < end)) end = lf;
    return (end < 0 ? all : all.substring(0, end)).getBytes(StandardCharsets.UTF_8);
  }

  /** The last {@code n} bytes of a fixture, as a caller reading a log's end would hand them. */
  static byte[] last(String name, int n) {
    byte[] all = bytes(name);
    return Arrays.copyOfRange(all, Math.max(0, all.length - n), all.length);
  }
}
