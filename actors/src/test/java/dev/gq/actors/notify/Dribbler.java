package dev.gq.actors.notify;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A loopback webhook that answers every request with 200 and its headers at once, then its declared
 * 1,000-byte body a byte a second: the slow target a notification's time limit must cut off.
 */
public final class Dribbler implements AutoCloseable {
  private final ServerSocket server;

  public Dribbler() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread.ofVirtual().start(() -> {
      while (!server.isClosed()) {
        try {
          Socket s = server.accept();
          Thread.ofVirtual().start(() -> dribble(s));
        } catch (IOException e) {
          return;
        }
      }
    });
  }

  private static void dribble(Socket s) {
    try (s) {
      s.getInputStream().read(new byte[8192]); // the request's head (and body): enough to answer
      OutputStream out = s.getOutputStream();
      out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
      out.flush();
      for (int i = 0; i < 1000; i++) {
        out.write('x');
        out.flush();
        Thread.sleep(1000); // slow on purpose: this is what the client must bound
      }
    } catch (IOException | InterruptedException e) {
      // the client hung up: done
    }
  }

  public int port() {
    return server.getLocalPort();
  }

  /** A webhook URL on it, with a secret in its path. */
  public String url() {
    return "http://127.0.0.1:" + port() + "/hook/secret-token";
  }

  @Override
  public void close() throws IOException {
    server.close();
  }
}
