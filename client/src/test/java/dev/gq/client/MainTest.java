package dev.gq.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.protocol.Frame;
import dev.gq.protocol.ClientRequest;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(20)
class MainTest {
  @TempDir Path dir;
  Harness h;

  @BeforeEach
  void setUp() {
    h = new Harness(dir);
  }

  @Test
  void sendsTheCommandLineAndPlaysTheFrames() throws Exception {
    h.env.put("GQ_CLIENT_TTY_OUT", "1");
    h.env.put("GQ_CLIENT_COLUMNS", "132");
    h.env.put("CUDA_HOME", "/opt/cuda");
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      out.send(Frame.out("job 1 submitted\n"));
      out.send(Frame.err("warning: é😀\n"));
      out.send(new Frame.Unknown("progress", "{\"t\":\"progress\"}"));
      out.send(Frame.exit(3));
    })) {
      assertEquals(3, h.run("submit", "--", "python", "train.py"));
      ClientRequest.Run run = (ClientRequest.Run) d.requests.get(0);
      assertEquals(List.of("submit", "--", "python", "train.py"), run.argv());
      assertEquals("/work/dir", run.cwd());
      assertEquals("/opt/cuda", run.env().get("CUDA_HOME"));
      assertTrue(run.env().keySet().stream().noneMatch(k -> k.startsWith("GQ_CLIENT_")));
      assertEquals(false, run.stdinTty());
      assertEquals(true, run.stdoutTty());
      assertEquals(132, run.width());
      assertEquals(36, run.requestId().length());
    }
    assertEquals("job 1 submitted\n", h.out);
    assertEquals("warning: é😀\n", h.err);
  }

  @Test
  void stdoutBytesFramesAreWrittenExactlyAfterTheTextBeforeThem() throws Exception {
    byte[] bytes = new byte[256];
    for (int i = 0; i < bytes.length; i++) bytes[i] = (byte) (255 - i);
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      out.send(Frame.out("head\n"));
      out.send(new Frame.OutBytes(bytes));
      out.send(new Frame.OutBytes(new byte[] {'c', 'a', 'f', (byte) 0xe9}));
      out.send(Frame.exit(0));
    })) {
      assertEquals(0, h.run("logs", "1"));
    }
    java.io.ByteArrayOutputStream expected = new java.io.ByteArrayOutputStream();
    expected.writeBytes("head\n".getBytes(StandardCharsets.UTF_8));
    expected.writeBytes(bytes);
    expected.writeBytes(new byte[] {'c', 'a', 'f', (byte) 0xe9});
    org.junit.jupiter.api.Assertions.assertArrayEquals(expected.toByteArray(), h.outBytes);
  }

  @Test
  void answersAPromptFromStdinWhenItIsATerminal() throws Exception {
    h.env.put("GQ_CLIENT_TTY_IN", "1");
    h.stdin = "y\r\nnot read\n";
    try (FakeDaemon d = new FakeDaemon(h.socket(), MainTest::echoAnswer)) {
      assertEquals(0, h.run("rm", "7"));
    }
    assertEquals("Delete job 7? [y/N] ", h.err);
    assertEquals("answer=y\n", h.out);
  }

  @Test
  void answersAPromptFromTheControllingTerminal() throws Exception {
    Path tty = dir.resolve("tty");
    Files.writeString(tty, "yes\n");
    h.ttyPath = tty.toString();
    h.env.put("GQ_CLIENT_TTY_ERR", "1");
    try (FakeDaemon d = new FakeDaemon(h.socket(), MainTest::echoAnswer)) {
      assertEquals(0, h.run("rm", "7"));
    }
    assertEquals("answer=yes\n", h.out);
  }

  @Test
  void answersNullWithoutATerminalOrAtEof() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), MainTest::echoAnswer)) {
      assertEquals(0, h.run("rm", "7"));
      assertEquals("answer=null\n", h.out);
      h.env.put("GQ_CLIENT_TTY_IN", "1");
      assertEquals(0, h.run("rm", "7"));
      assertEquals("answer=null\n", h.out);
    }
  }

  private static void echoAnswer(ClientRequest req, dev.gq.protocol.LineReader in,
      dev.gq.protocol.LineWriter out) throws Exception {
    out.send(Frame.prompt("Delete job 7? [y/N] "));
    Frame.Answer a = (Frame.Answer) Frame.decode(in.readLine());
    out.send(Frame.out("answer=" + a.line() + "\n"));
    out.send(Frame.exit(0));
  }

  @Test
  void aConnectionClosedBeforeTheExitFrameIsReported() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.send(Frame.out("partial\n")))) {
      assertEquals(1, h.run("ps"));
    }
    assertEquals("partial\n", h.out);
    assertEquals("gq: the daemon closed the connection before answering; see " + h.log() + "\n", h.err);
  }

  @Test
  void aFrameOverTheLimitAbortsWithAClearMessage() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      byte[] big = new byte[16 * 1024 * 1024 + 10];
      java.util.Arrays.fill(big, (byte) 'x');
      out.write(new String(big, StandardCharsets.US_ASCII));
    })) {
      assertEquals(1, h.run("logs", "1"));
    }
    assertEquals("gq: the daemon sent a frame larger than 16 MiB; see " + h.log() + "\n", h.err);
  }

  @Test
  void anInvalidFrameIsReported() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> out.write("{\"t\":\"out\"}"))) {
      assertEquals(1, h.run("ps"));
    }
    assertEquals("gq: the daemon sent an invalid frame: 's' is missing; it must be a string; see "
        + h.log() + "\n", h.err);
  }

  @Test
  void aRefusedRequestShowsTheDaemonsError() throws Exception {
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      out.send(Frame.err("gq: invalid request: 'argv' must be a list of strings\n"));
      out.send(Frame.exit(1));
    })) {
      assertEquals(1, h.run("ps"));
    }
    assertEquals("gq: invalid request: 'argv' must be a list of strings\n", h.err);
  }

  @Test
  void aClosedStdoutEndsQuietlyLikeSigpipe() throws Exception {
    OutputStream closed = new OutputStream() {
      @Override public void write(int b) throws IOException {
        throw new IOException("Broken pipe");
      }
    };
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      out.send(Frame.out("line\n"));
      out.send(Frame.exit(0));
    })) {
      java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
      Main main = new Main(h.env, "/", System.in, closed, err, "/nonexistent");
      assertEquals(141, main.run(new String[] {"ps"}));
      assertEquals("", err.toString(StandardCharsets.UTF_8), "quiet, as tools killed by SIGPIPE are");
    }
  }

  @Test
  void anotherFailureToWriteStdoutIsSaidOnStderr() throws Exception {
    OutputStream full = new OutputStream() {
      @Override public void write(int b) throws IOException {
        throw new IOException("No space left on device");
      }
    };
    java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    try (FakeDaemon d = new FakeDaemon(h.socket(), (req, in, out) -> {
      out.send(Frame.out("line\n"));
      out.send(Frame.exit(0));
    })) {
      Main main = new Main(h.env, "/", System.in, full, err, "/nonexistent");
      assertEquals(1, main.run(new String[] {"ps"}));
    }
    assertEquals("gq: cannot write to standard output: No space left on device\n", err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aSocketPathOverTheUnixLimitNamesGqRuntimeDir() {
    h.env.put("GQ_RUNTIME_DIR", "/tmp/" + "d".repeat(100));
    assertEquals(1, h.run("ps"));
    assertTrue(h.err.startsWith("gq: the socket path /tmp/ddd"), h.err);
    assertTrue(h.err.endsWith("over the 107-byte limit of unix sockets; set GQ_RUNTIME_DIR to a"
        + " shorter directory\n"), h.err);
  }

  @Test
  void daemonRunIsLeftToTheLauncherScript() {
    assertEquals(2, h.run("daemon", "run"));
    assertTrue(h.err.contains("bin/gq-daemon"), h.err);
  }
}
