package dev.gq.protocol;

/**
 * A line longer than the reader's limit. The daemon answers it with an error frame; the client
 * aborts. The reader that threw it is left mid-line and must not be used again.
 */
public final class LineTooLongException extends ProtocolException {
  private final int maxBytes;

  public LineTooLongException(int maxBytes) {
    super("line longer than " + describe(maxBytes));
    this.maxBytes = maxBytes;
  }

  public int maxBytes() {
    return maxBytes;
  }

  /** The limit in words: "16 MiB" for whole mebibytes, else a byte count. */
  public static String describe(int bytes) {
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0) return (bytes >> 20) + " MiB";
    return bytes + " bytes";
  }
}
