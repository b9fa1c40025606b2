package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.ClientRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The native client's conversation with a stand-in daemon: what it sends and how it plays frames. */
@Timeout(60)
class NativeClientTest {
  @TempDir Path dir;
  NativeGq gq;

  @BeforeEach
  void setUp() throws Exception {
    gq = new NativeGq(dir);
  }

  @Test
  void sendsTheCommandLineAndPlaysOutputErrorsAndTheExitCode() throws Exception {
    gq.env.put("FOO", "bar \"quoted\"\n\u00e9");
    gq.env.put("COLUMNS", "123");
    gq.env.put("GQ_CLIENT_TTY_IN", "0");
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.out("hello \u00e9\n"));
      out.send(new Frame.OutBytes(new byte[] {(byte) 0xff, 0, '\n'}));
      out.send(Frame.err("careful\n"));
      out.send(new Frame.Keepalive());
      out.write("{\"t\":\"later\",\"x\":[1,{\"y\":null}],\"s\":\"ignored\"}");
      out.send(Frame.exit(3));
    })) {
      NativeGq.Result r = gq.run("ps", "--all", "\u00fcber", "");
      assertEquals(3, r.code(), r.err());
      assertArrayEquals(concat("hello \u00e9\n".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xff, 0, '\n'}),
          r.outBytes());
      assertEquals("careful\n", r.err());
      ClientRequest.Run run = (ClientRequest.Run) d.requests.get(0);
      assertEquals(List.of("ps", "--all", "\u00fcber", ""), run.argv());
      assertEquals(gq.work.toRealPath().toString(), run.cwd());
      assertEquals("bar \"quoted\"\n\u00e9", run.env().get("FOO"));
      assertFalse(run.env().containsKey("GQ_CLIENT_TTY_IN"), "the launcher's variables are not passed on");
      assertEquals(123, run.width());
      assertFalse(run.stdinTty() || run.stdoutTty() || run.stderrTty(), "pipes, not terminals");
    }
  }

  @Test
  void theTerminalsHeightIsSentOnlyWhenStdoutIsATerminal() throws Exception {
    gq.env.put("GQ_CLIENT_LINES", "24");
    gq.env.put("GQ_CLIENT_TTY_OUT", "1");
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> out.send(Frame.exit(0)))) {
      assertEquals(0, gq.run("ps").code());
      gq.env.put("GQ_CLIENT_TTY_OUT", "0");
      assertEquals(0, gq.run("ps").code());
      ClientRequest.Run onScreen = (ClientRequest.Run) d.requests.get(0);
      ClientRequest.Run piped = (ClientRequest.Run) d.requests.get(1);
      assertEquals(24, onScreen.height());
      assertFalse(onScreen.env().containsKey("GQ_CLIENT_LINES"), "the launcher's variables are not passed on");
      assertEquals(0, piped.height());
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  @Test
  void aDaemonThatDiesMidAnswerEndsTheClientWithOneLine() throws Exception {
    String closed = "gq: the daemon closed the connection before answering; see " + gq.log() + "\n";
    // in the middle of a frame
    try (var d = new NativeGq.RawDaemon(gq.socket(), "{\"t\":\"out\",\"s\":\"first\\n\"}\n{\"t\":\"out\",\"s\":\"par".getBytes())) {
      NativeGq.Result r = gq.run("ps");
      assertEquals(1, r.code(), r.err());
      assertEquals("first\n", r.out());
      assertEquals(closed, r.err());
    }
    Files.delete(gq.socket());
    // between frames, before the exit frame
    try (var d = new NativeGq.RawDaemon(gq.socket(), "{\"t\":\"out\",\"s\":\"first\\n\"}\n".getBytes())) {
      NativeGq.Result r = gq.run("ps");
      assertEquals(1, r.code(), r.err());
      assertEquals(closed, r.err());
    }
  }

  @Test
  void framesNoDaemonSendsAreRefusedInOneLine() throws Exception {
    String[][] cases = {
        {"{\"t\":\"out\",\"s\":}", "invalid frame: unexpected character"},
        {"{\"t\":\"out\"}", "invalid frame: 's' is missing; it must be a string"},
        {"{\"t\":\"outb\",\"b\":\"@@@\"}", "invalid frame: 'b' is not base64"},
        {"{\"t\":\"exit\",\"code\":1.5}", "invalid frame: 'code' must be an integer from -2147483648 to 2147483647"},
        {"{\"t\":\"exit\",\"code\":1,\"code\":2}", "invalid frame: a key given twice"},
        {"[1,2]", "invalid frame: not a JSON object"},
        {"{\"t\":\"out\",\"s\":\"a\"} x", "invalid frame: unexpected text after the JSON value"},
        {"{\"t\":\"out\",\"s\":\"\\q\"}", "invalid frame: an invalid escape in a string"},
    };
    for (String[] c : cases) {
      try (var d = new NativeGq.RawDaemon(gq.socket(), (c[0] + "\n").getBytes())) {
        NativeGq.Result r = gq.run("ps");
        assertEquals(1, r.code(), c[0] + ": " + r.err());
        assertEquals("gq: the daemon sent an " + c[1] + "; see " + gq.log() + "\n", r.err(), c[0]);
      }
      Files.delete(gq.socket());
    }
  }

  @Test
  void aFrameOverTheLineLimitEndsTheClientWithOneLine() throws Exception {
    byte[] huge = new byte[16 * 1024 * 1024 + 64];
    java.util.Arrays.fill(huge, (byte) 'a');
    byte[] head = "{\"t\":\"out\",\"s\":\"".getBytes(StandardCharsets.UTF_8);
    System.arraycopy(head, 0, huge, 0, head.length);
    try (var d = new NativeGq.RawDaemon(gq.socket(), huge)) {
      NativeGq.Result r = gq.run("ps");
      assertEquals(1, r.code(), r.err());
      assertEquals("gq: the daemon sent a frame larger than 16 MiB; see " + gq.log() + "\n", r.err());
    }
  }

  @Test
  void aDeletedWorkingDirectoryIsSentAsTheDirectoryItWas() throws Exception {
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> out.send(Frame.exit(0)))) {
      Path gone = gq.work.resolve("gone");
      ProcessBuilder pb = new ProcessBuilder("bash", "-c", "mkdir \"$1\" && cd \"$1\" && rmdir \"$1\" && exec \"$0\" -g 0 true",
          NativeGq.BINARY.toString(), gone.toString()).directory(gq.work.toFile());
      pb.environment().clear();
      pb.environment().putAll(gq.env);
      NativeGq.Result r = NativeGq.finish(pb.start(), new byte[0]);
      assertEquals(0, r.code(), r.err());
      assertEquals(gone.toString(), ((ClientRequest.Run) d.requests.get(0)).cwd());
    }
  }

  @Test
  void daemonRunAndMcpGoToTheLauncherScript() throws Exception {
    NativeGq.Result r = gq.run("daemon", "run", "--help");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().startsWith("usage: gq daemon run"), r.out());
  }

  @Test
  void escapesAndSurrogatePairsDecodeToUtf8() throws Exception {
    String frames = "{\"t\":\"out\",\"s\":\"\\u00e9\\ud83d\\ude00\\t\\\"\\\\\\/\\n\"}\n{\"t\":\"exit\",\"code\":0}\n";
    try (var d = new NativeGq.RawDaemon(gq.socket(), frames.getBytes())) {
      NativeGq.Result r = gq.run("ps");
      assertEquals(0, r.code(), r.err());
      assertEquals("\u00e9\ud83d\ude00\t\"\\/\n", r.out());
    }
  }

  @Test
  void aDaemonOfAnotherProtocolVersionIsRefusedInOneLine() throws Exception {
    String refusal = "gq: the client speaks protocol 2 and this daemon 1; restart the daemon so both run the same gq version\n";
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.err(refusal));
      out.send(Frame.exit(1));
    })) {
      NativeGq.Result r = gq.run("ps");
      assertEquals(1, r.code());
      assertEquals(refusal, r.err());
      assertEquals("", r.out());
    }
  }

  @Test
  void aSocketPathOverTheUnixLimitIsNamedAndALongOneWorks() throws Exception {
    Path tooLong = dir.resolve("r".repeat(120));
    gq.env.put("GQ_RUNTIME_DIR", tooLong.toString());
    NativeGq.Result r = gq.run("ps");
    assertEquals(1, r.code());
    String sock = tooLong.resolve("gq.sock").toString();
    assertEquals("gq: the socket path " + sock + " is " + sock.length() + " bytes, over the 107-byte limit of unix"
        + " sockets; set GQ_RUNTIME_DIR to a shorter directory\n", r.err());

    // 106 bytes: the longest path the daemon's Java runtime binds (it adds the terminating NUL)
    String base = dir.resolve("x").toString();
    Path atLimit = Path.of(base + "x".repeat(106 - base.length() - "/gq.sock".length()));
    assertEquals(106, atLimit.resolve("gq.sock").toString().length());
    gq.env.put("GQ_RUNTIME_DIR", atLimit.toString());
    try (FakeDaemon d = new FakeDaemon(atLimit.resolve("gq.sock"), (req, in, out) -> {
      out.send(Frame.out("ok\n"));
      out.send(Frame.exit(0));
    })) {
      NativeGq.Result ok = gq.run("ps");
      assertEquals(0, ok.code(), ok.err());
      assertEquals("ok\n", ok.out());
    }
  }

  @Test
  void standardInputIsSentWholeAndAClosedOneIsSaidToBeClosed() throws Exception {
    java.io.ByteArrayOutputStream input = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < 20_000; i++) input.writeBytes(("line " + i + " \"q\" \\ \t \u00e9 \u0001\n").getBytes(StandardCharsets.UTF_8));
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(new Frame.StdinRequest());
      Frame.Stdin got = (Frame.Stdin) Frame.decode(in.readLine());
      out.send(Frame.out(got.text() != null ? got.text() : "error: " + got.error()));
      out.send(Frame.exit(0));
    })) {
      NativeGq.Result r = gq.run(input.toByteArray(), "submit", "--batch", "-");
      assertEquals(0, r.code(), r.err());
      assertArrayEquals(input.toByteArray(), r.outBytes());

      ProcessBuilder pb = new ProcessBuilder("bash", "-c", "exec \"$0\" submit --batch - <&-", NativeGq.BINARY.toString())
          .directory(gq.work.toFile());
      pb.environment().clear();
      pb.environment().putAll(gq.env);
      NativeGq.Result closed = NativeGq.finish(pb.start(), new byte[0]);
      assertEquals(0, closed.code(), closed.err());
      assertEquals("error: standard input is closed, so there is nothing to read; pipe the input in, or name a file", closed.out());
    }
  }

  @Test
  void standardInputOverTheLimitIsNotSent() throws Exception {
    byte[] big = new byte[16 * 1024 * 1024 + 1];
    java.util.Arrays.fill(big, (byte) 'a');
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(new Frame.StdinRequest());
      Frame.Stdin got = (Frame.Stdin) Frame.decode(in.readLine());
      out.send(Frame.out("error: " + got.error()));
      out.send(Frame.exit(0));
    })) {
      NativeGq.Result r = gq.run(big, "submit", "--batch", "-");
      assertEquals("error: standard input is larger than 16 MiB; split the input into several parts", r.out());
    }
  }

  @Test
  void aPromptIsAnsweredFromTheTerminal() throws Exception {
    gq.env.put("GQ_CLIENT_TTY_IN", "1");
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.prompt("Delete job 7? [y/N] "));
      Frame.Answer a = (Frame.Answer) Frame.decode(in.readLine());
      out.send(Frame.out("answer=" + a.line() + "\n"));
      out.send(Frame.exit(0));
    })) {
      NativeGq.Result r = gq.run("y\r\nrest\n".getBytes(), "rm", "7");
      assertEquals("answer=y\n", r.out());
      assertEquals("Delete job 7? [y/N] ", r.err());
    }
  }

  @Test
  void ctrlCEndsAFollowAndTheDaemonSeesTheConnectionClose() throws Exception {
    CountDownLatch gone = new CountDownLatch(1);
    try (FakeDaemon d = new FakeDaemon(gq.socket(), (req, in, out) -> {
      out.send(Frame.out("line 1\n"));
      try {
        while (true) {
          out.send(new Frame.Keepalive());
          Thread.sleep(50);
        }
      } catch (java.io.IOException e) {
        gone.countDown();
      }
    })) {
      // Ctrl-C as at a terminal: a build started in the background (by a shell without job control)
      // hands its children SIGINT ignored, which env(1) sets back to the default
      ProcessBuilder pb = gq.builder("logs", "-f", "1");
      pb.command().addAll(0, List.of("/usr/bin/env", "--default-signal=INT"));
      Process p = pb.start();
      byte[] first = p.getInputStream().readNBytes(7);
      assertEquals("line 1\n", new String(first, StandardCharsets.UTF_8));
      new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
      assertTrue(p.waitFor(10, TimeUnit.SECONDS), "Ctrl-C ends the client");
      assertEquals(130, p.exitValue());
      assertTrue(gone.await(10, TimeUnit.SECONDS), "the daemon sees the connection close");
    }
  }
}
