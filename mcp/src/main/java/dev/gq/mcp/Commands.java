package dev.gq.mcp;

import dev.gq.mcp.GqRunner.Outcome;
import dev.gq.mcp.Tool.Reply;
import java.util.List;

/**
 * Runs gq commands for the tools from one working directory and turns what they printed into a
 * reply: the output when the command succeeded; its message (gq's one-line error) as an error
 * when it did not. Output is cut to its last {@link #MAX_CHARS} characters.
 */
final class Commands {
  static final int MAX_CHARS = 64 * 1024;

  private final GqRunner runner;
  private final String cwd;

  Commands(GqRunner runner, String cwd) {
    this.runner = runner;
    this.cwd = cwd;
  }

  String cwd() {
    return cwd;
  }

  Outcome raw(List<String> argv, String dir) {
    return runner.run(argv, dir);
  }

  Reply run(List<String> argv) {
    return run(argv, cwd);
  }

  Reply run(List<String> argv, String dir) {
    Outcome o = runner.run(argv, dir);
    String out = bounded(o.stdout());
    String err = o.stderr().strip();
    if (o.exitCode() == 0) return Reply.ok(err.isEmpty() ? out : out + (out.isEmpty() ? "" : "\n") + err);
    String text = err.isEmpty() ? out.strip() : err;
    if (text.isEmpty()) text = "gq " + String.join(" ", argv) + " failed with exit code " + o.exitCode();
    return Reply.error(text + " (exit code " + o.exitCode() + ")");
  }

  static String bounded(String s) {
    if (s.length() <= MAX_CHARS) return s;
    return "[... the first " + (s.length() - MAX_CHARS) + " characters are left out]\n" + s.substring(s.length() - MAX_CHARS);
  }
}
