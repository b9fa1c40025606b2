package dev.gq.protocol;

import java.io.IOException;

/**
 * A line or frame that breaks the wire protocol: malformed JSON, a wrong field type, a line over
 * the size limit, a connection cut in the middle of a line. The message is one line that says
 * what is wrong, ready to show to the user after "gq: ".
 */
public class ProtocolException extends IOException {
  public ProtocolException(String message) {
    super(message);
  }
}
