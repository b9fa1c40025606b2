package dev.gq.cli.shell;

/** Quoting for the generated scripts: one word in single quotes, as each shell reads it. */
final class Shell {
  private Shell() {}

  /** {@code 'text'} for bash and zsh: each {@code '} in it written as {@code '\''}. */
  static String quote(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }

  /** {@code 'text'} for fish, where a backslash escapes {@code '} and itself inside single quotes. */
  static String fishQuote(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
