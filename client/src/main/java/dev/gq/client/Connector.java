package dev.gq.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Connects to the daemon's unix socket. "Not running" (no socket file, connection refused) is an
 * ordinary answer, null, because the client may then start the daemon; anything else (a path
 * over the kernel's limit, another user's socket) is a {@link Failure} that says what to change.
 */
final class Connector {
  /** sun_path holds 108 bytes including the terminating NUL. */
  static final int MAX_PATH_BYTES = 107;

  private final Path socket;
  private final UnixDomainSocketAddress address;

  Connector(Path socket) throws Failure {
    this.socket = socket;
    int bytes = socket.toString().getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_PATH_BYTES) {
      throw new Failure("the socket path " + socket + " is " + bytes + " bytes, over the "
          + MAX_PATH_BYTES + "-byte limit of unix sockets; set GQ_RUNTIME_DIR to a shorter directory");
    }
    this.address = UnixDomainSocketAddress.of(socket);
  }

  Path socket() {
    return socket;
  }

  /** A connected blocking channel, or null when no daemon is listening. */
  SocketChannel connect() throws Failure {
    if (Files.notExists(socket)) return null;
    try {
      return SocketChannel.open(address);
    } catch (ConnectException refused) {
      return null;
    } catch (IOException e) {
      return classify(e);
    }
  }

  /** Whether a daemon accepts connections now; the probe connection is closed at once. */
  boolean answers() throws Failure {
    SocketChannel ch = connect();
    if (ch == null) return false;
    try {
      ch.close();
    } catch (IOException ignored) {
      // closing a probe cannot fail in a way that matters
    }
    return true;
  }

  SocketChannel classify(IOException e) throws Failure {
    String msg = e.getMessage() == null ? "" : e.getMessage();
    if (msg.contains("No such file") || msg.contains("Connection refused")) return null;
    if (msg.contains("Permission denied")) {
      throw new Failure("cannot connect to " + socket
          + ": permission denied (is it another user's daemon? set GQ_RUNTIME_DIR)");
    }
    throw new Failure("cannot connect to " + socket + ": " + msg
        + "; check the socket path or set GQ_RUNTIME_DIR");
  }
}
