package dev.gq.web;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * How the page server answers: the headers every answer carries (a policy that lets the page load
 * only its own script and style, no framing, no referrer, no caching, no guessing of types), an
 * empty answer with a status (403 for a wrong or missing token: nothing tells why), a body, and the
 * jar's two static files from a fixed map, so no part of an address ever names a file.
 */
final class Replies {
  static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  private static final Map<String, String> TYPES = Map.of("page.js", "text/javascript; charset=utf-8",
      "page.css", "text/css; charset=utf-8");
  private static final Map<String, byte[]> ASSETS = Map.of("page.js", asset("page.js"), "page.css", asset("page.css"));

  private Replies() {}

  static void secure(HttpExchange ex) {
    Headers h = ex.getResponseHeaders();
    h.set("Content-Security-Policy", POLICY);
    h.set("X-Content-Type-Options", "nosniff");
    h.set("X-Frame-Options", "DENY");
    h.set("Referrer-Policy", "no-referrer");
    h.set("Cache-Control", "no-store");
  }

  static void empty(HttpExchange ex, int status) throws IOException {
    ex.sendResponseHeaders(status, -1);
  }

  static void body(HttpExchange ex, String type, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    boolean head = "HEAD".equals(ex.getRequestMethod());
    ex.sendResponseHeaders(200, head ? -1 : body.length);
    if (!head) ex.getResponseBody().write(body);
  }

  static void html(HttpExchange ex, String page) throws IOException {
    body(ex, "text/html; charset=utf-8", page.getBytes(StandardCharsets.UTF_8));
  }

  /** One of the jar's static files by its name ({@code page.js}, {@code page.css}); 404 for any other. */
  static void asset(HttpExchange ex, String name) throws IOException {
    byte[] b = ASSETS.get(name);
    if (b == null) empty(ex, 404);
    else body(ex, TYPES.get(name), b);
  }

  private static byte[] asset(String name) {
    try (InputStream in = Replies.class.getResourceAsStream(name)) {
      if (in == null) throw new IllegalStateException("the jar lacks dev/gq/web/" + name);
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
