package dev.gq.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;

/**
 * A connected unix socket through the small JNI library libgq-client-socket.so (built from
 * client/src/main/c), whose path the launcher passes as the system property
 * {@value #LIBRARY_PROPERTY}. The JDK's unix-domain channel sets up the security providers on first
 * use, a fifth of the client's start-up; this path skips that. {@link #available()} is false when
 * the property is unset or the library does not load, and the client then uses the JDK's channel.
 */
final class NativeSocket implements ByteChannel {
  static final String LIBRARY_PROPERTY = "gq.client.socketlib";
  static final int ENOENT = 2;
  static final int EACCES = 13;
  static final int ECONNREFUSED = 111;

  private static final boolean LOADED = load();

  private final int fd;
  private boolean open = true;

  private NativeSocket(int fd) {
    this.fd = fd;
  }

  private static boolean load() {
    String path = System.getProperty(LIBRARY_PROPERTY);
    if (path == null || path.isEmpty()) return false;
    try {
      System.load(path);
      return true;
    } catch (UnsatisfiedLinkError | SecurityException e) {
      return false;
    }
  }

  static boolean available() {
    return LOADED;
  }

  /** A socket connected to {@code path}; a failed socket() or connect() throws with its errno. */
  static NativeSocket connect(String path) throws Refused {
    int rc = connect0(path.getBytes(StandardCharsets.UTF_8));
    if (rc < 0) throw new Refused(-rc, strerror0(-rc));
    return new NativeSocket(rc);
  }

  /** A socket listening on {@code path} (for the training run); failures throw with their errno. */
  static NativeSocket listen(String path) throws Refused {
    int rc = listen0(path.getBytes(StandardCharsets.UTF_8));
    if (rc < 0) throw new Refused(-rc, strerror0(-rc));
    return new NativeSocket(rc);
  }

  /** The uid of the process at the other end (SO_PEERCRED), as the kernel recorded it at connect. */
  long peerUid() throws IOException {
    if (!open) throw new ClosedChannelException();
    long rc = peerUid0(fd);
    if (rc < 0) throw new IOException(strerror0((int) -rc));
    return rc;
  }

  /** The next connection to this listening socket. */
  NativeSocket accept() throws IOException {
    if (!open) throw new ClosedChannelException();
    int rc = accept0(fd);
    if (rc < 0) throw new IOException(strerror0(-rc));
    return new NativeSocket(rc);
  }

  /** A failed connect, with the C library's errno and text. */
  static final class Refused extends IOException {
    private static final long serialVersionUID = 1L;
    final int errno;

    Refused(int errno, String text) {
      super(text);
      this.errno = errno;
    }
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    if (!open) throw new ClosedChannelException();
    int len = dst.remaining();
    if (len == 0) return 0;
    int n;
    if (dst.hasArray()) {
      n = read0(fd, dst.array(), dst.arrayOffset() + dst.position(), len);
      if (n > 0) dst.position(dst.position() + n);
    } else {
      byte[] tmp = new byte[Math.min(len, 65536)];
      n = read0(fd, tmp, 0, tmp.length);
      if (n > 0) dst.put(tmp, 0, n);
    }
    if (n < 0) throw new IOException(strerror0(-n));
    return n == 0 ? -1 : n;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    if (!open) throw new ClosedChannelException();
    int len = src.remaining();
    if (len == 0) return 0;
    int n;
    if (src.hasArray()) {
      n = write0(fd, src.array(), src.arrayOffset() + src.position(), len);
      if (n > 0) src.position(src.position() + n);
    } else {
      byte[] tmp = new byte[Math.min(len, 65536)];
      src.get(src.position(), tmp);
      n = write0(fd, tmp, 0, tmp.length);
      if (n > 0) src.position(src.position() + n);
    }
    if (n < 0) throw new IOException(strerror0(-n));
    return n;
  }

  /** Ends both directions; a read blocked in another thread returns the end of the stream. */
  void shutdown() throws IOException {
    if (!open) return;
    int rc = shutdown0(fd);
    if (rc < 0) throw new IOException(strerror0(-rc));
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() throws IOException {
    if (!open) return;
    open = false;
    int rc = close0(fd);
    if (rc < 0) throw new IOException(strerror0(-rc));
  }

  private static native int connect0(byte[] path);

  private static native int listen0(byte[] path);

  private static native int accept0(int fd);

  private static native int read0(int fd, byte[] buf, int off, int len);

  private static native int write0(int fd, byte[] buf, int off, int len);

  private static native int close0(int fd);

  private static native long peerUid0(int fd);

  private static native int shutdown0(int fd);

  private static native String strerror0(int errno);
}
