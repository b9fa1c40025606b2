package dev.gq.client;

import java.io.FileInputStream;
import java.io.IOException;
import java.util.UUID;

/**
 * Random (version 4) request ids. Reads 16 bytes from /dev/urandom instead of using
 * {@link UUID#randomUUID()}, whose SecureRandom set-up costs a fresh JVM several milliseconds.
 */
final class RequestIds {
  private RequestIds() {}

  static String next() {
    byte[] b = new byte[16];
    try (FileInputStream in = new FileInputStream("/dev/urandom")) {
      if (in.readNBytes(b, 0, 16) != 16) return UUID.randomUUID().toString();
    } catch (IOException e) {
      return UUID.randomUUID().toString();
    }
    b[6] = (byte) ((b[6] & 0x0f) | 0x40);
    b[8] = (byte) ((b[8] & 0x3f) | 0x80);
    long msb = 0;
    long lsb = 0;
    for (int i = 0; i < 8; i++) msb = (msb << 8) | (b[i] & 0xff);
    for (int i = 8; i < 16; i++) lsb = (lsb << 8) | (b[i] & 0xff);
    return new UUID(msb, lsb).toString();
  }
}
