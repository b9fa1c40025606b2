package dev.gq.cli;

/**
 * ANSI colours for job states in tables: green for a job that runs, red for one that ended badly,
 * yellow for one that waits or is held; others plain. Only on a terminal, and never when the
 * caller's environment sets {@code NO_COLOR} (https://no-color.org) or {@code TERM=dumb}.
 */
final class Colour {
  private static final String GREEN = "\u001b[32m";
  private static final String RED = "\u001b[31m";
  private static final String YELLOW = "\u001b[33m";
  private static final String RESET = "\u001b[0m";

  private Colour() {}

  /** Whether output to this caller may be coloured. */
  static boolean enabled(Io io) {
    if (!io.stdoutTty()) return false;
    String no = io.env().get("NO_COLOR");
    return (no == null || no.isEmpty()) && !"dumb".equals(io.env().get("TERM"));
  }

  /** The state cell {@code text} ("RUNNING", "FAILED", "HELD", possibly cut) in its colour. */
  static String state(String text) {
    String code = switch (text) {
      case "RUNNING", "STARTING" -> GREEN;
      case "FAILED", "TIMEOUT", "INTERRUPTED", "ORPHANED" -> RED;
      case "WAITING", "HELD" -> YELLOW;
      default -> null;
    };
    return code == null ? text : code + text + RESET;
  }
}
