package dev.gq.client;

import dev.gq.protocol.Frame;
import dev.gq.protocol.GqPaths;
import dev.gq.protocol.PrivateDirectory;
import dev.gq.protocol.ClientRequest;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.ByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The {@code gq} command: sends its command line to the daemon over the unix socket and plays
 * back the daemon's frames, starting the daemon first when none answers. It answers
 * {@code gq daemon status|stop|start} itself when no daemon runs, and waits for a stopped daemon
 * to have exited ({@link DaemonExit}). Plain JDK, built for a fast
 * start: no reflection, lambdas or regular expressions on the way. Ctrl-C ends the JVM with 130
 * and the closed socket tells the daemon.
 */
public final class Main {
  static final long START_TIMEOUT_MILLIS = 15_000;
  /** How long {@code gq wait} and {@code gq logs -f} wait for a restarting daemon to answer again. */
  static final long RECONNECT_MILLIS = 60_000;
  /** Restarts within one reconnect window after which the client stops following a crashing daemon. */
  static final int MAX_QUICK_RECONNECTS = 5;

  private final Map<String, String> env;
  private final String cwd;
  private final InputStream stdin;
  private final OutputStream out;
  private final OutputStream err;
  private final String ttyPath;
  long startTimeoutMillis = START_TIMEOUT_MILLIS;
  long exitTimeoutMillis = DaemonExit.EXIT_TIMEOUT_MILLIS;
  long reconnectMillis = RECONNECT_MILLIS;
  private Watchdog watchdog;

  Main(Map<String, String> env, String cwd, InputStream stdin, OutputStream out,
      OutputStream err, String ttyPath) {
    this.env = env;
    this.cwd = cwd;
    this.stdin = stdin;
    this.out = out;
    this.err = err;
    this.ttyPath = ttyPath;
  }

  public static void main(String[] args) {
    OutputStream err = new FileOutputStream(FileDescriptor.err);
    int code;
    try {
      // the bytes as given: the JVM's decoding of args, environment and cwd may have changed them
      RawCommandLine raw = RawCommandLine.ofThisProcess(args, System.getenv());
      String cwd = raw.workingDirectory(System.getProperty("user.dir"));
      for (String name : raw.droppedEnv()) {
        tell(err, "gq: note: environment variable " + name + " is not passed on: it is not valid UTF-8\n");
      }
      Main main = new Main(raw.env(), cwd,
          new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out), err, "/dev/tty");
      code = main.run(raw.args().toArray(new String[0]));
    } catch (ClientFailure f) {
      tell(err, "gq: " + f.getMessage() + "\n");
      code = f.code();
    }
    // halt: nothing is buffered, and exit() would first load the JDK's logging to log the exit
    Runtime.getRuntime().halt(code);
  }

  /** Runs one invocation and returns the exit code. */
  int run(String[] args) {
    try {
      ClientCall inv = ClientCall.of(args, env, cwd);
      GqPaths paths = GqPaths.fromEnvironment(env);
      String unsafe = PrivateDirectory.checkBoth(paths);
      if (unsafe != null) throw new ClientFailure(unsafe);
      Connector connector = new Connector(paths.socket());
      watchdog = new Watchdog(connector, paths.daemonLog(), Watchdog.timeoutMillis(env.get(Watchdog.ENV_TIMEOUT)));
      watchdog.start();
      String action = inv.daemonAction();
      if ("run".equals(action)) {
        throw new ClientFailure("'gq daemon run' is done by the launcher script, which runs the daemon in the"
            + " foreground; run it through bin/gq, or run bin/gq-daemon", 2);
      }
      ByteChannel ch = connector.connect();
      if ("start".equals(action)) return daemonStart(ch, paths, connector, inv);
      if ("restart".equals(action)) return daemonRestart(ch, paths, connector, inv);
      if (ch == null) {
        if ("status".equals(action)) return say("gq daemon is not running\n", 1);
        if ("stop".equals(action)) return say("gq daemon is not running\n", 0);
        ch = launcher(paths, connector, inv).start();
      }
      // the process holding the lock now is the one asked to stop
      DaemonExit exit = "stop".equals(action) ? DaemonExit.before(connector, paths, exitTimeoutMillis) : null;
      int code = inv.resumable() ? playResuming(ch, inv, paths, connector) : play(ch, inv, paths);
      if (exit != null && code == 0 && inv.waitsForExit()) exit.awaitExited("");
      return code;
    } catch (ClientFailure f) {
      if (f.getMessage() != null) tell(err, "gq: " + f.getMessage() + "\n");
      return f.code();
    } finally {
      if (watchdog != null) watchdog.interrupt();
    }
  }

  private int play(ByteChannel ch, ClientCall inv, GqPaths paths) throws ClientFailure {
    FrameLoop loop = loop(ch, inv, paths);
    try {
      return loop.run(inv.request(RequestIds.next()).toJson());
    } finally {
      loop.close();
    }
  }

  private FrameLoop loop(ByteChannel ch, ClientCall inv, GqPaths paths) {
    Terminal terminal = new Terminal(stdin, err, inv, ttyPath);
    // The launcher says when standard input was closed (descriptor 0 may then be some other file).
    boolean closed = "1".equals(env.get(ClientCall.STDIN_CLOSED));
    return new FrameLoop(ch, out, err, terminal, paths.daemonLog(), closed ? null : stdin)
        .watchedBy(watchdog);
  }

  /**
   * Plays a command that only looks ({@code wait}, {@code logs -f}) and sends it again when the
   * daemon restarts under it, instead of failing; {@code logs -f} does not print again what it
   * printed. A daemon that does not come back within {@link #RECONNECT_MILLIS}, or that keeps
   * closing the connection, ends it with one line.
   */
  private int playResuming(ByteChannel ch, ClientCall inv, GqPaths paths, Connector connector) throws ClientFailure {
    long printed = 0;
    int quick = 0;
    while (true) {
      FrameLoop loop = loop(ch, inv, paths).skippingStdout(inv.followsLog() ? printed : 0);
      long opened = System.nanoTime();
      try {
        return loop.run(inv.request(RequestIds.next()).toJson());
      } catch (ClientFailure f) {
        if (!loop.closedEarly()) throw f;
        printed = Math.max(printed, loop.stdoutBytes());
      } finally {
        loop.close();
      }
      quick = System.nanoTime() - opened < reconnectMillis * 1_000_000L ? quick + 1 : 1;
      if (quick > MAX_QUICK_RECONNECTS) {
        throw new ClientFailure("the daemon closed the connection " + quick + " times in a row; see " + paths.daemonLog());
      }
      ch = reconnect(connector, paths);
    }
  }

  private ByteChannel reconnect(Connector connector, GqPaths paths) throws ClientFailure {
    tell(err, "gq: the daemon closed the connection; reconnecting (it may be restarting)\n");
    long deadline = System.nanoTime() + reconnectMillis * 1_000_000L;
    while (true) {
      ByteChannel ch = connector.connect();
      if (ch != null) return ch;
      if (System.nanoTime() > deadline) {
        throw new ClientFailure("the daemon stopped and did not come back within " + reconnectMillis / 1000
            + " s; start it with 'gq daemon start' and run the command again (see " + paths.daemonLog() + ")");
      }
      DaemonLauncher.sleep(100);
    }
  }

  private int daemonStart(ByteChannel ch, GqPaths paths, Connector connector, ClientCall inv)
      throws ClientFailure {
    String verb = "is already running";
    if (ch == null) {
      ch = launcher(paths, connector, inv).start();
      verb = "started";
    }
    long pid = ping(ch, paths);
    return say("gq daemon " + verb + " (pid " + pid + ")\n", 0);
  }

  /**
   * Stops a running daemon (its jobs keep running), waits until it has let go of its lock and
   * exited, whatever clients it served, and starts a new one.
   */
  private int daemonRestart(ByteChannel ch, GqPaths paths, Connector connector, ClientCall inv)
      throws ClientFailure {
    if (ch != null) {
      DaemonExit exit = DaemonExit.before(connector, paths, exitTimeoutMillis);
      int code = play(ch, inv, paths);
      if (code != 0) return code;
      exit.awaitExited("; no new daemon was started: run 'gq daemon start' once it has exited");
    }
    return daemonStart(null, paths, connector, inv);
  }

  /** The daemon's pid from a ping; an error frame (another protocol version) is passed on. */
  private long ping(ByteChannel ch, GqPaths paths) throws ClientFailure {
    FrameLoop loop = new FrameLoop(ch, out, err, null, paths.daemonLog()).watchedBy(watchdog);
    try {
      loop.send(new ClientRequest.Ping().toJson());
      while (true) {
        Frame f = loop.next();
        if (f instanceof Frame.Pong p) return p.pid();
        if (f instanceof Frame.Err e) tell(err, e.text());
        if (f instanceof Frame.Exit x) throw new ClientFailure(null, x.code() == 0 ? 1 : x.code());
      }
    } finally {
      loop.close();
    }
  }

  /** The daemon gets the caller's environment, less the launcher's GQ_CLIENT_* variables. */
  private DaemonLauncher launcher(GqPaths paths, Connector connector, ClientCall inv) {
    return new DaemonLauncher(paths, inv.env(), connector, startTimeoutMillis);
  }

  private int say(String text, int code) {
    tell(out, text);
    return code;
  }

  private static void tell(OutputStream stream, String text) {
    try {
      stream.write(text.getBytes(StandardCharsets.UTF_8));
      stream.flush();
    } catch (IOException ignored) {
      // nowhere left to report it
    }
  }
}
