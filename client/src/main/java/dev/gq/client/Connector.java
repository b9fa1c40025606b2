package dev.gq.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * Connects to the daemon's unix socket. "Not running" (no socket file, connection refused) is an
 * ordinary answer, null, because the client may then start the daemon; anything else (a path
 * over the kernel's limit, another user's socket or listener) is a {@link ClientFailure} that says what
 * to change.
 * Uses {@link NativeSocket} when its library is loaded, else the JDK's channel.
 */
final class Connector {
  /** sun_path holds 108 bytes including the terminating NUL. */
  static final int MAX_PATH_BYTES = 107;

  private final Path socket;
  private final boolean useNative;

  Connector(Path socket) throws ClientFailure {
    this(socket, NativeSocket.available());
  }

  Connector(Path socket, boolean useNative) throws ClientFailure {
    this.socket = socket;
    this.useNative = useNative;
    int bytes = socket.toString().getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_PATH_BYTES) {
      throw new ClientFailure("the socket path " + socket + " is " + bytes + " bytes, over the "
          + MAX_PATH_BYTES + "-byte limit of unix sockets; set GQ_RUNTIME_DIR to a shorter directory");
    }
  }

  Path socket() {
    return socket;
  }

  /**
   * A connected blocking channel to a listener of this user, or null when no daemon is listening;
   * a listener of another user is a {@link ClientFailure}, found before anything is sent.
   */
  ByteChannel connect() throws ClientFailure {
    return checked(useNative ? connectNative() : connectJdk());
  }

  /**
   * {@code ch} when its listener may be talked to; null when there was none, or when the socket
   * file is gone by the time it is checked: a stopping daemon removes its socket just before it
   * closes, so a connection it accepted meanwhile leads nowhere, as a refused one.
   */
  ByteChannel checked(ByteChannel ch) throws ClientFailure {
    if (ch == null) return null;
    String problem = SocketPeer.problem(socket, ch);
    if (problem == null) return ch;
    try {
      ch.close();
    } catch (IOException ignored) {
      // refused anyway
    }
    if (Files.notExists(socket, LinkOption.NOFOLLOW_LINKS)) return null;
    throw new ClientFailure(problem);
  }

  private ByteChannel connectJdk() throws ClientFailure {
    if (Files.notExists(socket)) return null;
    try {
      return SocketChannel.open(UnixDomainSocketAddress.of(socket));
    } catch (ConnectException refused) {
      return null;
    } catch (IOException e) {
      return classify(e);
    }
  }

  private ByteChannel connectNative() throws ClientFailure {
    try {
      return NativeSocket.connect(socket.toString());
    } catch (NativeSocket.Refused e) {
      if (e.errno == NativeSocket.ENOENT || e.errno == NativeSocket.ECONNREFUSED) return null;
      if (e.errno == NativeSocket.EACCES) throw permissionDenied();
      return classify(e);
    }
  }

  /** Whether a daemon accepts connections now; the probe connection is closed at once. */
  boolean answers() throws ClientFailure {
    ByteChannel ch = connect();
    if (ch == null) return false;
    try {
      ch.close();
    } catch (IOException ignored) {
      // closing a probe cannot fail in a way that matters
    }
    return true;
  }

  ByteChannel classify(IOException e) throws ClientFailure {
    String msg = e.getMessage() == null ? "" : e.getMessage();
    if (msg.contains("No such file") || msg.contains("Connection refused")) return null;
    if (msg.contains("Permission denied")) throw permissionDenied();
    throw new ClientFailure("cannot connect to " + socket + ": " + msg
        + "; check the socket path or set GQ_RUNTIME_DIR");
  }

  private ClientFailure permissionDenied() {
    return new ClientFailure("cannot connect to " + socket
        + ": permission denied (is it another user's daemon? set GQ_RUNTIME_DIR)");
  }
}
