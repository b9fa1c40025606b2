package dev.gq.web;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The page's secret: 32 random bytes as hex, new at every start, kept only in the daemon's memory
 * and in the address it prints. A request shows it as {@code token=} in its query; the comparison
 * takes the same time whatever it finds.
 */
final class Token {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Token() {}

  static String fresh() {
    byte[] b = new byte[32];
    RANDOM.nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** Whether the raw query string {@code query} carries {@code token}. */
  static boolean carried(String query, String token) {
    String given = param(query, "token");
    return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
  }

  /** The raw value of parameter {@code name} in a query string; null when absent. */
  static String param(String query, String name) {
    if (query == null) return null;
    for (String kv : query.split("&")) if (kv.startsWith(name + "=")) return kv.substring(name.length() + 1);
    return null;
  }
}
