package dev.gq.actors.socket;

import java.util.concurrent.atomic.LongAdder;

/**
 * How many frames the daemon has sent its clients, keepalives left out: a client being served (a
 * command's output, each screen of {@code gq top}, each line of {@code gq logs -f}) moves it, an
 * idle client kept open ({@code gq wait}) does not. Read to tell a quiet daemon from one between
 * the bursts of a long request.
 */
public final class ClientActivity {
  private static final LongAdder FRAMES = new LongAdder();

  private ClientActivity() {}

  static void sent() {
    FRAMES.increment();
  }

  /** The frames sent so far. */
  public static long frames() {
    return FRAMES.sum();
  }
}
