package dev.gq.core.ledger;

import java.util.List;

/**
 * What makes a job's command unusable, by the one rule every submit path follows: a command is
 * given, its program name is not empty, and no argument holds a NUL byte (no program can receive
 * one). {@code argument} is the 1-based position of the argument with the NUL byte, else 0. The
 * daemon words it with {@link #message}; the CLI words it for its own options and batch lines.
 */
public record CommandFault(Kind kind, int argument) {
  public enum Kind { MISSING, EMPTY_NAME, NUL_BYTE }

  /** The fault of {@code argv}, or null when it can be run. */
  public static CommandFault of(List<String> argv) {
    if (argv.isEmpty()) return new CommandFault(Kind.MISSING, 0);
    if (argv.get(0).isEmpty()) return new CommandFault(Kind.EMPTY_NAME, 0);
    for (int i = 0; i < argv.size(); i++) {
      if (argv.get(i).indexOf('\0') >= 0) return new CommandFault(Kind.NUL_BYTE, i + 1);
    }
    return null;
  }

  /** The daemon's one line for a spec whose command has this fault. */
  public String message() {
    return switch (kind) {
      case MISSING, EMPTY_NAME -> "the command is empty; give a command after gq's options, e.g. gq -g 1 python train.py";
      case NUL_BYTE -> "an argument of the command contains a NUL byte, which no program can receive";
    };
  }
}
