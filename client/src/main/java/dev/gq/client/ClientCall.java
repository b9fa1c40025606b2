package dev.gq.client;

import dev.gq.protocol.ClientRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code gq} command line as the daemon will see it: argv, cwd, the environment without the
 * launcher's private {@code GQ_CLIENT_*} variables, which standard streams are terminals and the
 * terminal width, and a working directory that was deleted, as the launcher found it. The launcher script measures the terminals ({@code [ -t 0 ]}, {@code stty size})
 * because the JVM cannot tell reliably; without it the client falls back to the console.
 */
record ClientCall(List<String> argv, String cwd, Map<String, String> env, boolean stdinTty,
    boolean stdoutTty, boolean stderrTty, int width, int height) {

  static final String TTY_IN = "GQ_CLIENT_TTY_IN";
  static final String TTY_OUT = "GQ_CLIENT_TTY_OUT";
  static final String TTY_ERR = "GQ_CLIENT_TTY_ERR";
  static final String COLUMNS = "GQ_CLIENT_COLUMNS";
  /** The terminal's lines, measured by the launcher script when stdout is a terminal. */
  static final String LINES = "GQ_CLIENT_LINES";
  /**
   * Set by the launcher when the shell's working directory was deleted (the JVM cannot start in
   * one, so the launcher starts it in /): the directory it was, which the command then names.
   */
  static final String CWD_GONE = "GQ_CLIENT_CWD_GONE";
  /** Set by the launcher script: "1" when the caller's standard input was closed. */
  static final String STDIN_CLOSED = "GQ_CLIENT_STDIN_CLOSED";
  static final int DEFAULT_WIDTH = 80;
  static final int MAX_WIDTH = 100_000;

  static ClientCall of(String[] args, Map<String, String> rawEnv, String cwd) {
    Map<String, String> env = new HashMap<>(rawEnv);
    env.remove(TTY_IN);
    env.remove(TTY_OUT);
    env.remove(TTY_ERR);
    env.remove(COLUMNS);
    env.remove(LINES);
    env.remove(CWD_GONE);
    env.remove(STDIN_CLOSED);
    String gone = rawEnv.get(CWD_GONE);
    if (gone != null && !gone.isEmpty()) cwd = gone;
    List<String> argv = new ArrayList<>(args.length);
    for (String a : args) argv.add(a);
    boolean stdoutTty = tty(rawEnv.get(TTY_OUT));
    return new ClientCall(argv, cwd, env, tty(rawEnv.get(TTY_IN)), stdoutTty,
        tty(rawEnv.get(TTY_ERR)), width(rawEnv), stdoutTty ? height(rawEnv) : 0);
  }

  /** "1" or "0" from the launcher; without it, whether the JVM has a console. */
  static boolean tty(String flag) {
    if ("1".equals(flag)) return true;
    if ("0".equals(flag)) return false;
    return System.console() != null;
  }

  static int width(Map<String, String> env) {
    int w = positive(env.get(COLUMNS));
    if (w == 0) w = positive(env.get("COLUMNS"));
    return w == 0 ? DEFAULT_WIDTH : w;
  }

  /** The terminal's lines: the launcher's measure, else LINES; 0 when neither says. */
  static int height(Map<String, String> env) {
    int h = positive(env.get(LINES));
    return h == 0 ? positive(env.get("LINES")) : h;
  }

  /** The value as a width from 1 to MAX_WIDTH, or 0 when it is not one. */
  private static int positive(String s) {
    if (s == null || s.isEmpty() || s.length() > 6) return 0;
    int v = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') return 0;
      v = v * 10 + (c - '0');
    }
    return v <= MAX_WIDTH ? v : 0;
  }

  /**
   * For {@code gq daemon ACTION}: ACTION (the word after "daemon", options skipped), which the
   * client handles itself when no daemon answers; null for every other command, and for a request
   * for help ({@code -h}, {@code --help}), which the daemon answers like any other command's.
   */
  String daemonAction() {
    for (String a : argv) {
      if (a.equals("--")) break;
      if (a.equals("-h") || a.equals("--help")) return null;
    }
    String first = null;
    for (String a : argv) {
      if (a.startsWith("-")) {
        if (a.equals("--")) return null;
        continue;
      }
      if (first != null) return a;
      if (!a.equals("daemon")) return null;
      first = a;
    }
    return first == null ? null : "";
  }

  /**
   * For {@code gq daemon stop}: whether to wait until the daemon has exited (the default) or to
   * return once it has been asked ({@code --no-wait}); the last of {@code --wait} and
   * {@code --no-wait} counts.
   */
  boolean waitsForExit() {
    boolean wait = true;
    for (String a : argv) {
      if (a.equals("--")) break;
      if (a.equals("--wait")) wait = true;
      else if (a.equals("--no-wait")) wait = false;
    }
    return wait;
  }

  /** The first word that is not an option (the subcommand), or null. */
  String command() {
    for (String a : argv) {
      if (a.equals("--")) return null;
      if (!a.startsWith("-")) return a;
    }
    return null;
  }

  /**
   * {@code gq logs -f JOB} (also under its alias {@code log}): its output is the log from its start, so a repeat prints only what is
   * new. Not so without JOB (the newest job may then be another) or with {@code -n} (the last lines
   * then start elsewhere): such a repeat could print other bytes, so it is not sent again.
   */
  boolean followsLog() {
    String command = command();
    if (!"logs".equals(command) && !"log".equals(command)) return false;
    boolean follow = false, job = false, lines = false;
    for (int i = argv.indexOf(command) + 1; i < argv.size(); i++) {
      String a = argv.get(i);
      if (a.equals("-f") || a.equals("--follow")) follow = true;
      else if (a.equals("-n") || a.equals("--lines")) {
        lines = true;
        i++;
      } else if (a.startsWith("--lines=") || (a.startsWith("-") && !a.startsWith("--") && a.contains("n"))) lines = true;
      else if (!a.startsWith("-")) job = true;
    }
    return follow && job && !lines;
  }

  /**
   * Whether the command may be sent again on a new connection when the daemon restarts under it:
   * {@code gq wait} and {@code gq logs -f}, which only look and may run for hours.
   */
  boolean resumable() {
    return "wait".equals(command()) || followsLog();
  }

  ClientRequest.Run request(String requestId) {
    return new ClientRequest.Run(requestId, argv, cwd, env, stdinTty, stdoutTty, stderrTty, width, height);
  }
}
