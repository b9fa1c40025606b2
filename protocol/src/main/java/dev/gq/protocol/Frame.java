package dev.gq.protocol;

import java.util.Base64;
import java.util.Objects;

/**
 * One line from the daemon to the client ({@code out}, {@code outb}, {@code err}, {@code prompt}, {@code exit},
 * {@code pong}, {@code stdin_request}, {@code keepalive}, {@code screen}, {@code stdin_stream}) or from the
 * client back ({@code answer}, {@code stdin}, {@code key}, {@code size}, {@code inb}, {@code stdin_end}). {@link #toJson()} gives the compact JSON without the newline ({@link LineWriter}
 * adds it); {@link #decode} reads one back. Frame types this version does not know decode to
 * {@link Unknown}, so that older clients can skip them.
 */
public sealed interface Frame {

  /** The frame as one line of compact JSON, without the trailing newline. */
  String toJson();

  /** Text for the client's stdout, written as is (the daemon includes the newlines). */
  record Out(String text) implements Frame {
    public Out {
      Objects.requireNonNull(text, "text");
    }

    @Override public String toJson() {
      return textFrame("out", text);
    }
  }

  /**
   * Bytes for the client's stdout, written exactly as they are (a job's log, which need not be
   * UTF-8); base64 on the wire. {@link #MAX_BYTES} at most, so that any frame fits a small heap.
   */
  record OutBytes(byte[] bytes) implements Frame {
    /** The most bytes one frame carries: 768 KiB, 1 MiB of base64. */
    public static final int MAX_BYTES = 768 * 1024;

    public OutBytes {
      Objects.requireNonNull(bytes, "bytes");
    }

    @Override public String toJson() {
      return "{\"t\":\"outb\",\"b\":\"" + Base64.getEncoder().encodeToString(bytes) + "\"}";
    }
  }

  /** Text for the client's stderr, written as is. */
  record Err(String text) implements Frame {
    public Err {
      Objects.requireNonNull(text, "text");
    }

    @Override public String toJson() {
      return textFrame("err", text);
    }
  }

  /** A question for the user; the client answers with exactly one {@link Answer}. */
  record Prompt(String question) implements Frame {
    public Prompt {
      Objects.requireNonNull(question, "question");
    }

    @Override public String toJson() {
      return textFrame("prompt", question);
    }
  }

  /** The line the user typed, without its newline; null when the terminal gave EOF or none. */
  record Answer(String line) implements Frame {
    @Override public String toJson() {
      return line == null ? "{\"t\":\"answer\",\"s\":null}" : textFrame("answer", line);
    }
  }

  /** The last frame of a run: the client exits with {@code code}. */
  record Exit(int code) implements Frame {
    @Override public String toJson() {
      return "{\"t\":\"exit\",\"code\":" + code + "}";
    }
  }

  /** The daemon's answer to a ping: its pid, its gq version and its protocol version. */
  record Pong(long pid, String version, int protocol) implements Frame {
    public Pong {
      Objects.requireNonNull(version, "version");
    }

    @Override public String toJson() {
      StringBuilder sb = new StringBuilder(64).append("{\"t\":\"pong\",\"pid\":").append(pid);
      sb.append(",\"version\":");
      Json.quote(sb, version);
      return sb.append(",\"protocol\":").append(protocol).append('}').toString();
    }
  }

  /** The daemon asks for the caller's whole standard input; the client answers with one {@link Stdin}. */
  record StdinRequest() implements Frame {
    @Override public String toJson() {
      return "{\"t\":\"stdin_request\"}";
    }
  }

  /**
   * The caller's whole standard input as text ({@code text}), or, when the client could not send
   * it, null and {@code error} saying why (too large, unreadable). Large input is written by
   * {@link StdinText} without building this record.
   */
  record Stdin(String text, String error) implements Frame {
    @Override public String toJson() {
      StringBuilder sb = new StringBuilder(text == null ? 64 : text.length() + 24).append("{\"t\":\"stdin\",\"s\":");
      if (text == null) sb.append("null");
      else Json.quote(sb, text);
      if (error != null) {
        sb.append(",\"error\":");
        Json.quote(sb, error);
      }
      return sb.append('}').toString();
    }
  }

  /** Sent by the daemon while a command runs without output, so that it notices a client that went away. */
  record Keepalive() implements Frame {
    @Override public String toJson() {
      return "{\"t\":\"keepalive\"}";
    }
  }

  /**
   * The daemon asks the client to show a full screen ({@code gq top}): raw terminal, alternate screen,
   * cursor hidden, until the {@link Exit} frame or the end of the connection, on which the client
   * puts the terminal back. From here the client sends {@link Key} and {@link Size} frames, and the
   * {@link Out} frames it gets are the screen's escape sequences.
   */
  record Screen() implements Frame {
    @Override public String toJson() {
      return "{\"t\":\"screen\"}";
    }
  }

  /** What the user typed in full-screen mode, as the terminal gave it (an arrow is {@code "\u001b[A"}). */
  record Key(String text) implements Frame {
    public Key {
      Objects.requireNonNull(text, "text");
    }

    @Override public String toJson() {
      return textFrame("key", text);
    }
  }

  /** The terminal's size in full-screen mode: sent once on entering it and again on every change. */
  record Size(int width, int height) implements Frame {
    @Override public String toJson() {
      return "{\"t\":\"size\",\"width\":" + width + ",\"height\":" + height + "}";
    }
  }

  /**
   * The daemon asks the client to send its standard input as it comes ({@code gq mcp}, a session
   * served inside the daemon): {@link InBytes} frames with what each read gave, then one
   * {@link StdinEnd} at its end, while the client goes on playing the daemon's frames.
   */
  record StdinStream() implements Frame {
    @Override public String toJson() {
      return "{\"t\":\"stdin_stream\"}";
    }
  }

  /** Bytes of the caller's standard input, exactly as read (base64 on the wire), after a {@link StdinStream}. */
  record InBytes(byte[] bytes) implements Frame {
    /** The most bytes one frame carries: 64 KiB, one read of the native client. */
    public static final int MAX_BYTES = 64 * 1024;

    public InBytes {
      Objects.requireNonNull(bytes, "bytes");
    }

    @Override public String toJson() {
      return "{\"t\":\"inb\",\"b\":\"" + Base64.getEncoder().encodeToString(bytes) + "\"}";
    }
  }

  /** The caller's standard input has ended (after a {@link StdinStream}); the client sends nothing more. */
  record StdinEnd() implements Frame {
    @Override public String toJson() {
      return "{\"t\":\"stdin_end\"}";
    }
  }

  /** A frame type that this version does not know; its line is kept as received. */
  record Unknown(String type, String line) implements Frame {
    @Override public String toJson() {
      return line;
    }
  }

  static Out out(String text) { return new Out(text); }

  static Err err(String text) { return new Err(text); }

  static Prompt prompt(String question) { return new Prompt(question); }

  static Answer answer(String line) { return new Answer(line); }

  static Exit exit(int code) { return new Exit(code); }

  /** A pong of this process's protocol version. */
  static Pong pong(long pid, String version) { return new Pong(pid, version, Protocol.VERSION); }

  /** Decodes one line; a known type with wrong members is a {@link ProtocolException}. */
  static Frame decode(String line) throws ProtocolException {
    Fields f = Fields.parse("frame", line);
    String t = f.string("t");
    switch (t) {
      case "out": return new Out(f.string("s"));
      case "outb": return new OutBytes(base64(f.string("b")));
      case "err": return new Err(f.string("s"));
      case "prompt": return new Prompt(f.string("s"));
      case "answer": return new Answer(f.stringOrNull("s"));
      case "exit": return new Exit(f.integer("code", Integer.MIN_VALUE, Integer.MAX_VALUE));
      case "stdin_request": return new StdinRequest();
      case "stdin": return new Stdin(f.stringOrNull("s"), f.stringOrNull("error"));
      case "keepalive": return new Keepalive();
      case "screen": return new Screen();
      case "key": return new Key(f.string("s"));
      case "stdin_stream": return new StdinStream();
      case "inb": return new InBytes(base64(f.string("b")));
      case "stdin_end": return new StdinEnd();
      case "size": return new Size(ScreenBounds.width(f.integer("width", 1, 100_000)),
          ScreenBounds.height(f.integer("height", 1, 100_000)));
      case "pong":
        return new Pong(f.integer("pid"), f.string("version"),
            f.integer("protocol", 0, Integer.MAX_VALUE));
      default: return new Unknown(t, line);
    }
  }

  private static byte[] base64(String text) throws ProtocolException {
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new ProtocolException("invalid frame: 'b' is not base64");
    }
  }

  private static String textFrame(String type, String s) {
    StringBuilder sb = new StringBuilder(s.length() + 20).append("{\"t\":\"").append(type);
    sb.append("\",\"s\":");
    Json.quote(sb, s);
    return sb.append('}').toString();
  }
}
