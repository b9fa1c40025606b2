package dev.gq.mcp;

/**
 * A tool call the server cannot answer now for want of memory (its output would not fit what the
 * daemon lets requests hold at once): answered with a JSON-RPC server error carrying the one line,
 * and the call may be sent again.
 */
public final class ServerBusy extends RuntimeException {
  public ServerBusy(String message) {
    super(message, null, false, false);
  }
}
