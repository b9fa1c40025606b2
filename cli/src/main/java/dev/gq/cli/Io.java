package dev.gq.cli;

import dev.gq.protocol.RequestMemory;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The invoking terminal, as the client described it: its output streams (frames back to the
 * client; text, and bytes passed through unchanged), whether stdin/stdout/stderr are terminals, the width, the caller's cwd and environment, a way
 * to ask a yes/no question, and the caller's standard input when a command needs it.
 * {@link #closed()} turns true when the client has gone (Ctrl-C), so streaming commands stop.
 */
public interface Io {
  PrintWriter out();

  PrintWriter err();

  /**
   * The caller's standard output for bytes that must arrive exactly as they are (a job's log, which
   * need not be UTF-8). What was written to {@link #out()} before goes out first; flush to send.
   */
  OutputStream rawOut();

  boolean stdinTty();

  boolean stdoutTty();

  /** Whether the caller's stderr is a terminal: where notes meant for a person (not a script) go. */
  boolean stderrTty();

  int width();

  /** The terminal's height in lines when stdout is one; 0 when not known or not a terminal. */
  default int height() {
    return 0;
  }

  Path cwd();

  Map<String, String> env();

  /** Asks the user; empty when there is no terminal to ask or the client went away. */
  Optional<String> prompt(String question);

  /**
   * The caller's whole standard input, read by the client once it ends (at most about 16 MiB);
   * empty when the client went away. Throws {@link RefusedException} when the client could not
   * send it (too large, unreadable).
   */
  Optional<String> readStdin();

  boolean closed();

  /**
   * Says that the command now streams until its caller goes ({@code logs -f}, {@code wait},
   * {@code events -f}): from here it counts against the daemon's room for streams, not the room
   * for short commands, and {@link #closed()} turns true as soon as the caller has gone. Throws
   * {@link RefusedException} with the one line to show when the daemon follows as many streams as
   * it may. Calling it again does nothing.
   */
  default void beginStream() {}

  /**
   * Whether the client can show a full screen that the daemon draws ({@code gq top}): the native
   * client, with stdin and stdout terminals.
   */
  default boolean screen() {
    return false;
  }

  /**
   * Switches the client to its full screen (raw terminal, alternate screen, cursor hidden) until the
   * command ends; from here {@link #nextInput} gives what the user types and each new size, and
   * {@link #out()} carries the screen's escape sequences. A stream, as {@link #beginStream()}.
   */
  default void enterScreen() {
    throw new RefusedException("this client cannot show a full screen");
  }

  /**
   * The next key or size from a client in full screen, waiting at most {@code timeout}: empty when
   * nothing came, {@link ScreenInput.Gone} once the client has gone.
   */
  default Optional<ScreenInput> nextInput(Duration timeout) throws InterruptedException {
    return Optional.of(new ScreenInput.Gone());
  }

  /**
   * Asks the client to send its standard input as it comes ({@code gq mcp} served in the daemon) and
   * returns it as a stream of its bytes, which ends at the end of the client's input or when the
   * client goes. A stream, as {@link #beginStream()}. Throws {@link RefusedException} with the one
   * line to show when the client cannot send it so, or the daemon follows as many streams as it may.
   */
  default InputStream streamStdin() {
    throw new RefusedException("this client cannot stream its standard input to the daemon; run 'gq mcp' with the gq"
        + " command (bin/gq in a checkout, or the installed gq)");
  }

  /** The memory what this request holds is charged to: the daemon's shared budget; no bound elsewhere. */
  default RequestMemory memory() {
    return RequestMemory.UNBOUNDED;
  }
}
