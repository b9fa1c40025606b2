package dev.gq.actors.socket;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A process for {@link AcceptLoopSparesTest}: an accept loop on the socket given, serving each
 * client by holding its connection until the client closes, with every descriptor of the process
 * taken but {@code free} of them, and a thread that keeps trying to open a file, holds it 20 ms
 * and pauses 5 ms, as the daemon's readers of /proc and shared files do (but often). Prints {@code ready} when it
 * listens.
 */
final class AcceptLoopProbe {
  private AcceptLoopProbe() {}

  public static void main(String[] args) throws Exception {
    Path socket = Path.of(args[0]);
    int free = Integer.parseInt(args[1]);
    ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
    server.bind(UnixDomainSocketAddress.of(socket), 50);
    ClientLimit limit = new ClientLimit(1000, 1000, 0);
    AcceptLoop loop = new AcceptLoop(server, limit, new ClientSlots(limit), (c, slot) -> {
      try {
        while (c.read(ByteBuffer.allocate(64)) >= 0) {
          // held until the client goes
        }
      } catch (IOException gone) {
        // the client went
      }
    }, () -> true);
    List<FileChannel> padding = new ArrayList<>();
    try {
      while (true) padding.add(FileChannel.open(Path.of("/dev/null")));
    } catch (IOException full) {
      // every descriptor is taken
    }
    for (int i = 0; i < free; i++) padding.removeLast().close();
    Thread taker = new Thread(() -> {
      while (true) {
        try {
          try (FileChannel f = FileChannel.open(Path.of("/dev/null"))) {
            Thread.sleep(20);
          }
          Thread.sleep(5);
        } catch (IOException none) {
          Thread.onSpinWait();
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    taker.setDaemon(true);
    taker.start();
    Thread accept = new Thread(loop);
    accept.setDaemon(true);
    accept.start();
    System.out.println("ready");
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }
}
