package dev.gq.host.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Finds, before a job is spawned, a command that cannot be run, the way execvp(3) would look for
 * it: a name with a slash is taken from the job's directory, any other is searched on the job's
 * PATH (the C library's default when it has none). Its text is the shim's for the same failure
 * ("cannot run 'uv': No such file or directory"), so a mistyped command fails the launch at once
 * rather than after it started. It reports only what it is sure of: anything else is left to the
 * shim, which records an exec failure itself.
 */
final class CommandLookup {
  /** What execvp searches when the environment has no PATH (glibc's confstr(_CS_PATH)). */
  static final String DEFAULT_PATH = "/bin:/usr/bin";
  private static final String MISSING = "No such file or directory";
  private static final String DENIED = "Permission denied";

  private CommandLookup() {}

  /** Why {@code command} cannot be run from {@code cwd} with {@code path} as PATH (null: unset), or null when it may. */
  static String problem(String command, String path, Path cwd) {
    if (command.isEmpty()) return text(command, MISSING);
    try {
      if (command.indexOf('/') >= 0) {
        String why = check(cwd.resolve(command));
        return why == null ? null : text(command, why);
      }
      boolean denied = false;
      for (String dir : (path == null ? DEFAULT_PATH : path).split(":", -1)) {
        String why = check(cwd.resolve(dir.isEmpty() ? "." : dir).resolve(command));
        if (why == null) return null;
        denied |= why.equals(DENIED);
      }
      return text(command, denied ? DENIED : MISSING);
    } catch (InvalidPathException | SecurityException e) {
      return null;
    }
  }

  /** Null when {@code file} may be run or its state is unsure; else the C library's words for why not. */
  private static String check(Path file) {
    // one stat for each directory of PATH that lacks the command, the common case
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return MISSING;
    } catch (IOException e) {
      return null;
    }
    return a.isRegularFile() && Files.isExecutable(file) ? null : DENIED;
  }

  /**
   * As {@link #problem(String, String, Path)}, naming the virtual environment ({@code venv}, the
   * job's VIRTUAL_ENV; null: none) when the command was taken from it and it is gone.
   */
  static String problem(String command, String path, Path cwd, String venv) {
    String why = problem(command, path, cwd);
    if (why == null || venv == null || venv.isEmpty() || !command.startsWith(venv + "/bin/")) return why;
    if (Files.isDirectory(Path.of(venv))) return why;
    return "the virtual environment " + venv + " is gone (" + why + "); create it again, then 'gq retry' the job";
  }

  private static String text(String command, String why) {
    return "cannot run '" + command + "': " + why;
  }
}
