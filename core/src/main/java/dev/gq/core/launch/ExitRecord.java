package dev.gq.core.launch;

import java.util.Optional;

/**
 * The shim's record of how a job's command ended, read from {@code <data>/run/<id>.exit}. One line:
 * {@code exit N}, {@code signal N} or {@code exec-error TEXT} (the command could not be started),
 * and a second line {@code alone} when the shim found no process the job started left as it ended
 * ({@link #leftNothing}).
 */
public record ExitRecord(Kind kind, int code, String text) {

  public enum Kind { EXITED, SIGNALLED, EXEC_FAILED }

  // Linux signals are 1..64 (SIGRTMAX); the shim writes WEXITSTATUS (0..255) or WTERMSIG.
  private static final int MAX_SIGNAL = 64;
  private static final String ALONE = "alone";

  public static ExitRecord exited(int code) {
    return new ExitRecord(Kind.EXITED, code, null);
  }

  public static ExitRecord signalled(int signal) {
    return new ExitRecord(Kind.SIGNALLED, signal, null);
  }

  public static ExitRecord execFailed(String text) {
    return new ExitRecord(Kind.EXEC_FAILED, 127, text);
  }

  /**
   * Parses the file's content; empty when it is not a record the shim writes (garbage, truncated, or
   * a number out of range: a status outside 0..255, a signal outside 1..64).
   */
  public static Optional<ExitRecord> parse(String content) {
    String line = content.strip();
    if (line.endsWith("\n" + ALONE)) line = line.substring(0, line.length() - ALONE.length() - 1).strip();
    int space = line.indexOf(' ');
    if (space < 0) return Optional.empty();
    String word = line.substring(0, space);
    String rest = line.substring(space + 1).strip();
    return switch (word) {
      case "exit" -> number(rest, 0, 255).map(ExitRecord::exited);
      case "signal" -> number(rest, 1, MAX_SIGNAL).map(ExitRecord::signalled);
      case "exec-error" -> rest.isEmpty() ? Optional.empty() : Optional.of(execFailed(rest));
      default -> Optional.empty();
    };
  }

  /**
   * Whether {@code content} is a whole record that says no process the job started was left when
   * the shim ended: then none of the job's session or process group can be alive either.
   */
  public static boolean leftNothing(String content) {
    String text = content.strip();
    return text.endsWith("\n" + ALONE) && parse(text).isPresent();
  }

  // Plain ASCII digits only: parseInt would also take a sign, or digits of other scripts.
  private static Optional<Integer> number(String s, int min, int max) {
    if (s.isEmpty() || s.length() > 3 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) return Optional.empty();
    int n = Integer.parseInt(s);
    return n < min || n > max ? Optional.empty() : Optional.of(n);
  }

  /** The exit code as gq reports it: the status, or 128+signal for a signal (as shells do). */
  public int exitCode() {
    return kind == Kind.SIGNALLED ? 128 + code : code;
  }

  public String render() {
    return switch (kind) {
      case EXITED -> "exit " + code;
      case SIGNALLED -> "signal " + code;
      case EXEC_FAILED -> "exec-error " + text;
    };
  }
}
