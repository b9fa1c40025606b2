package dev.gq.web;

/**
 * The page's own addresses, each carrying the token (the page keeps it in its links, never in a
 * cookie: a browser sends a cookie of 127.0.0.1 to every port of 127.0.0.1, another user's server
 * too).
 */
final class Links {
  private Links() {}

  static String home(String token) {
    return "/" + query(token, '?');
  }

  static String job(long id, String token) {
    return "/job/" + id + query(token, '?');
  }

  static String events(String token) {
    return "/events" + query(token, '?');
  }

  static String jobEvents(long id, long from, String token) {
    return "/events/job/" + id + "?from=" + from + query(token, '&');
  }

  static String asset(String name, String token) {
    return "/static/" + name + query(token, '?');
  }

  /** No query at all where no token is needed (the lab's page without one). */
  private static String query(String token, char sep) {
    return token == null ? "" : sep + "token=" + token;
  }
}
