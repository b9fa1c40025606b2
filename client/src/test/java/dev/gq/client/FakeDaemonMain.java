package dev.gq.client;

import dev.gq.protocol.Frame;
import dev.gq.protocol.GqPaths;
import dev.gq.protocol.ClientRequest;
import java.nio.file.Files;

/**
 * A daemon stand-in run as its own process by {@link DaemonControlTest} through GQ_DAEMON_CMD:
 * answers pings, echoes run requests, and exits after {@code daemon stop}. With the argument
 * {@code old} it plays a daemon of another protocol version: it holds the daemon's lock file, as a
 * daemon does, and refuses every request (a ping too) as such a daemon refuses them.
 */
public final class FakeDaemonMain {
  public static void main(String[] args) throws Exception {
    GqPaths paths = GqPaths.fromEnvironment(System.getenv());
    long pid = ProcessHandle.current().pid();
    Files.writeString(paths.pidFile(), pid + "\n");
    Files.writeString(paths.dataDir().resolve("daemon.env"),
        System.getenv("GQ_DATA_DIR") + "|" + System.getenv().containsKey("GQ_CLIENT_TTY_IN")
        + "|" + System.getProperty("user.dir") + "\n");
    System.out.println("fake daemon " + pid + " listening");
    FakeDaemon[] self = new FakeDaemon[1];
    if (args.length > 0 && args[0].equals("old")) {
      java.nio.channels.FileChannel lock = java.nio.channels.FileChannel.open(paths.lockFile(),
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
      lock.lock();
      self[0] = new FakeDaemon(paths.socket(), (req, in, out) -> {
        out.send(Frame.err("gq: the client speaks protocol 2 and this daemon 1; restart the daemon so both run"
            + " the same gq version\n"));
        out.send(Frame.exit(1));
      });
      Thread.sleep(60_000);
      return;
    }
    // as the real daemon: one per runtime directory, its lock held until just before it exits
    java.nio.channels.FileChannel lockFile = java.nio.channels.FileChannel.open(paths.lockFile(),
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
    if (lockFile.tryLock() == null) {
      System.out.println("gq daemon: another gq daemon is already running");
      System.exit(1);
    }
    self[0] = new FakeDaemon(paths.socket(), (req, in, out) -> {
      if (req instanceof ClientRequest.Ping) {
        out.send(Frame.pong(pid, "test"));
        return;
      }
      ClientRequest.Run run = (ClientRequest.Run) req;
      out.send(Frame.out("ran " + String.join(" ", run.argv()) + "\n"));
      out.send(Frame.exit(0));
      if (run.argv().size() > 1 && run.argv().get(0).equals("daemon")
          && (run.argv().get(1).equals("stop") || run.argv().get(1).equals("restart"))) {
        Thread.sleep(300);
        self[0].close();
        // closing its database and its actors: the socket is gone, the lock and the process not yet
        Thread.sleep(700);
        System.exit(0);
      }
    });
    Thread.sleep(60_000);
  }
}
