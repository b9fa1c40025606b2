package dev.gq.mcp;

/** A tool was called with an argument it cannot use; the message says which and what to pass. */
final class BadArgument extends RuntimeException {
  BadArgument(String message) {
    super(message, null, false, false);
  }
}
