package dev.gq.client;

import dev.gq.protocol.PrivateDirectory;
import java.io.IOException;
import java.nio.channels.ByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * Who is at the other end of a fresh connection, checked before the client sends anything (its
 * request carries the whole environment): the process listening must run as this user (the
 * kernel's SO_PEERCRED, through {@link NativeSocket} or the JDK's channel), and the socket file
 * must be a socket that this user owns. Anything else is another user's listener, refused in one line.
 */
final class SocketPeer {
  private static final int S_IFMT = 0170000;
  private static final int S_IFSOCK = 0140000;

  private SocketPeer() {}

  /** The one-line reason not to talk to {@code ch}, connected to {@code socket}, or null. */
  static String problem(Path socket, ByteChannel ch) {
    try {
      int me = PrivateDirectory.myUid();
      String peer = peerProblem(ch, me);
      if (peer != null) return "the socket " + socket + " is served by " + peer + ", not by you (uid " + me + ")"
          + "; nothing was sent; remove it, or set GQ_RUNTIME_DIR to a directory of your own";
      Map<String, Object> attrs = Files.readAttributes(socket, "unix:uid,mode", LinkOption.NOFOLLOW_LINKS);
      if (((Integer) attrs.get("mode") & S_IFMT) != S_IFSOCK) {
        return socket + " is not a socket; nothing was sent; remove it, or set GQ_RUNTIME_DIR to a directory of your own";
      }
      int owner = (Integer) attrs.get("uid");
      if (owner != me) return "the socket " + socket + " belongs to uid " + owner + ", not to you (uid " + me + ")"
          + "; nothing was sent; remove it, or set GQ_RUNTIME_DIR to a directory of your own";
      return null;
    } catch (IOException | RuntimeException e) {
      return "cannot tell who serves the socket " + socket + ": " + e.getMessage()
          + "; nothing was sent; set GQ_RUNTIME_DIR to a directory of your own";
    }
  }

  /** Who the peer is when it is not this user ("uid 1001", "user bob"), or null. */
  private static String peerProblem(ByteChannel ch, int me) throws IOException {
    if (ch instanceof NativeSocket n) {
      long uid = n.peerUid();
      return uid == me ? null : "uid " + uid;
    }
    UnixDomainPrincipal peer = ((SocketChannel) ch).getOption(ExtendedSocketOptions.SO_PEERCRED);
    UserPrincipal mine = Files.getOwner(Path.of("/proc/self"));
    return mine.equals(peer.user()) ? null : "user " + peer.user().getName();
  }
}
