package dev.gq.actors.socket;

import dev.gq.api.GqApi;
import dev.gq.cli.CommandTrees;
import dev.gq.cli.Gq;
import dev.gq.host.libc.Libc;
import dev.gq.protocol.ClientRequest;
import dev.gq.protocol.Frame;
import dev.gq.protocol.LineReader;
import dev.gq.protocol.LineTooLongException;
import dev.gq.protocol.LineWriter;
import dev.gq.protocol.Protocol;
import dev.gq.protocol.ProtocolException;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the Unix-domain socket: one connection per client invocation, each on its own platform thread,
 * as many at once as {@link ClientLimit} allows ({@link AcceptLoop} refuses the others with one line);
 * a command that streams moves to the streams' own budget ({@link ClientSlots}), so followers never
 * take the room of short commands, and is closed first when the daemon stops.
 * Checks the peer's user on every connection, reads one request line (size-limited), runs the
 * command tree against the daemon's API (a tree built ahead, {@link CommandTrees}) and streams
 * frames back. A malformed, oversized, foreign or vanishing client gets one line (when it can
 * still read) and never harms the daemon; large lines share one memory budget ({@link FrameBudget}).
 */
public final class SocketServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SocketServer.class);

  private final Path path;
  private final GqApi api;
  private final ServerSocketChannel server;
  private final UserPrincipal me;
  private final AtomicBoolean open = new AtomicBoolean(true);
  private final OpenConnections clients = new OpenConnections();
  private final FrameBudget budget = FrameBudget.standard();
  private final ClientLimit limit;
  /**
   * The next request's command trees, built while the daemon waits for it, on a thread below the
   * others: a build then never takes a core from a request being served or a job being launched.
   */
  private final CommandTrees trees = CommandTrees.inBackground(SocketServer::lowerTreeBuilder);
  /** The tree builder's nice value: far below a served request, yet never starved for long. */
  static final int TREE_BUILDER_NICE = 10;
  /** Said once, to the first client: why the daemon before this one stopped. */
  private final AtomicReference<String> firstClientNote = new AtomicReference<>();

  private SocketServer(Path path, GqApi api, ServerSocketChannel server, UserPrincipal me, ClientLimit limit) {
    this.path = path;
    this.api = api;
    this.server = server;
    this.me = me;
    this.limit = limit;
  }

  /** As {@link #start(Path, GqApi, int, int)} with the streams' budget automatic. */
  public static SocketServer start(Path path, GqApi api, int maxClients) throws IOException {
    return start(path, api, maxClients, 0);
  }

  /**
   * Binds the socket (mode 0600) and starts accepting, serving at most {@code maxClients} requests
   * and {@code maxStreams} streams at once (0: as many as the open-file limit leaves room for, see
   * {@link ClientLimit}).
   */
  public static SocketServer start(Path path, GqApi api, int maxClients, int maxStreams) throws IOException {
    return start(path, api, maxClients, maxStreams, null);
  }

  /** The same, saying {@code firstClientNote} (null: nothing) once, on stderr, to the first client served. */
  public static SocketServer start(Path path, GqApi api, int maxClients, int maxStreams, String firstClientNote)
      throws IOException {
    Files.deleteIfExists(path);
    ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    ch.bind(UnixDomainSocketAddress.of(path));
    Files.setPosixFilePermissions(path, PosixFilePermissions.fromString("rw-------"));
    UserPrincipal me = FileSystems.getDefault().getUserPrincipalLookupService()
        .lookupPrincipalByName(System.getProperty("user.name"));
    ClientLimit limit = clientLimit(maxClients, maxStreams);
    SocketServer s = new SocketServer(path, api, ch, me, limit);
    s.firstClientNote.set(firstClientNote);
    LOG.info("serving at most {} clients at once (open-file limit {}): {} requests and {} streams (logs -f, wait, events -f)",
        limit.total(), limit.fdLimit(), limit.max(), limit.maxStreams());
    Thread.ofPlatform().name("gq-accept").daemon(true)
        .start(new AcceptLoop(ch, limit, new ClientSlots(limit), s::serve, s.open::get));
    return s;
  }

  private static ClientLimit clientLimit(int clients, int streams) throws IOException {
    long fdLimit = ClientLimit.openFileLimit(Files.readString(Path.of("/proc/self/limits")));
    int fdsOpen;
    try (var fds = Files.list(Path.of("/proc/self/fd"))) {
      fdsOpen = (int) fds.count();
    }
    return ClientLimit.of(clients, streams, fdLimit, fdsOpen + AcceptLoop.SPARES);
  }

  private void serve(SocketChannel c, ClientSlots.Slot slot) {
    clients.add(c);
    try (c; FrameBudget.Lease lease = budget.lease()) {
      AnswerCharges.bind(lease);
      serveOne(c, slot, lease);
    } catch (IOException e) {
      LOG.debug("cannot close a client connection: {}", e.getMessage());
    } finally {
      AnswerCharges.unbind();
      clients.remove(c);
    }
  }

  /** Serves one connection; the channel is still open in every handler below. */
  private void serveOne(SocketChannel c, ClientSlots.Slot slot, FrameBudget.Lease lease) {
    try {
      LineWriter w = new LineWriter(c);
      UnixDomainPrincipal peer = c.getOption(ExtendedSocketOptions.SO_PEERCRED);
      if (!me.equals(peer.user())) {
        LOG.warn("refused a connection from user {}", peer.user().getName());
        refuse(w, "this gq daemon serves only its own user; start your own (set GQ_RUNTIME_DIR)");
        return;
      }
      LineReader r = new LineReader(c, Protocol.MAX_LINE_BYTES, lease);
      String line = r.readLine();
      if (line == null) return;
      ClientRequest req = ClientRequest.decode(line);
      if (req instanceof ClientRequest.Ping) w.send(new Frame.Pong(ProcessHandle.current().pid(), Gq.VERSION, Protocol.VERSION));
      else run((ClientRequest.Run) req, c, slot, w, r);
    } catch (LineTooLongException e) {
      quietly(c, "the request is larger than " + (Protocol.MAX_LINE_BYTES >> 20) + " MiB; trim the environment or the command");
    } catch (ProtocolException e) {
      quietly(c, e.getMessage());
    } catch (IOException e) {
      LOG.debug("client went away: {}", e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("internal error serving a client", e);
      quietly(c, "internal daemon error; see the daemon log");
    }
  }

  private void run(ClientRequest.Run req, SocketChannel c, ClientSlots.Slot slot, LineWriter w, LineReader r) {
    FrameIo.StreamRoom room = new FrameIo.StreamRoom() {
      @Override
      public boolean enter() {
        if (!slot.toStream()) return false;
        clients.stream(c);
        return true;
      }

      @Override
      public String busy() {
        return limit.busyStreams();
      }
    };
    FrameIo io = new FrameIo(req, c, room, w, r, budget);
    String note = firstClientNote.getAndSet(null);
    if (note != null) io.err().println("gq: " + note);
    int code = Gq.run(req.argv(), io, api, trees);
    io.send(new Frame.Exit(code));
  }

  private static void lowerTreeBuilder() {
    try {
      Libc.niceThisThread(TREE_BUILDER_NICE);
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("the command tree builder runs at the daemon's priority: {}", e.toString());
    }
  }

  private static void refuse(LineWriter w, String msg) throws IOException {
    w.send(new Frame.Err("gq: " + msg + "\n"));
    w.send(new Frame.Exit(1));
  }

  private static void quietly(SocketChannel c, String msg) {
    try {
      refuse(new LineWriter(c), msg);
    } catch (IOException ignored) {
      // the client is gone; nothing to tell it
    }
  }

  @Override
  public void close() {
    open.set(false);
    try {
      server.close();
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.warn("cannot remove the socket {}: {}", path, e.getMessage());
    }
    clients.closeAll();
    trees.close();
  }
}
