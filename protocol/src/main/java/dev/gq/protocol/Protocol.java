package dev.gq.protocol;

/**
 * Constants of the wire protocol between the {@code gq} client and the daemon: the version both
 * sides put in their first message and the size limit of one line. The whole protocol is
 * described in docs/protocol.md.
 */
public final class Protocol {
  /** Version of the protocol; a daemon refuses requests that carry another one. */
  public static final int VERSION = 2;

  /** Largest line, request or frame, in bytes without its newline: 16 MiB. */
  public static final int MAX_LINE_BYTES = 16 * 1024 * 1024;

  /** Largest nesting of JSON arrays and objects that the codec accepts. */
  public static final int MAX_DEPTH = 64;

  private Protocol() {}
}
