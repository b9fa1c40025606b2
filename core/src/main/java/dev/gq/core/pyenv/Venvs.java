package dev.gq.core.pyenv;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which Python virtual environment a submitted command runs in, decided at submit. A command named
 * without a path ({@code python}, {@code python3}, {@code pip}, or a console script such as
 * {@code accelerate}) runs from the project's {@code .venv} when one holds it: the nearest
 * {@code .venv/bin/<command>} from the working directory upwards, stopping at the repository's root
 * (a directory with {@code .git}) or the home directory. Nothing is looked for when an environment
 * is active ({@code VIRTUAL_ENV} or {@code CONDA_PREFIX} set: its {@code PATH} already says which),
 * for {@code uv} (which finds the project's environment itself), or with {@code --no-venv};
 * {@code --venv PATH} names one. The job then runs {@code <venv>/bin/<command>} with the
 * environment an activation gives ({@code VIRTUAL_ENV}, the venv's {@code bin} first on
 * {@code PATH}, no {@code PYTHONHOME}). The file checks are the caller's ({@code exists}). Pure.
 */
public final class Venvs {
  private Venvs() {}

  /** Commands that manage environments themselves, never taken from a venv. */
  static final Set<String> OWN_ENVIRONMENT = Set.of("uv", "uvx", "conda", "mamba", "micromamba", "pixi", "poetry", "pipenv");

  /** The venv to use ({@code dir}, absolute), how to say it (a found one relative to the working directory), and the argv and environment to store. */
  public record Choice(Path dir, String shown, List<String> argv, Map<String, String> env) {}

  /**
   * The venv {@code argv} runs in, found from {@code cwd} upwards (or {@code given} when not null), with
   * the argv and environment to store; null when none applies. {@code exists} tells whether a path
   * exists; {@code home} is the caller's home directory (null: none).
   */
  public static Choice choose(List<String> argv, Map<String, String> env, Path cwd, Path home, Path given, boolean off,
      Predicate<Path> exists) {
    if (off || argv.isEmpty()) return null;
    String cmd = argv.get(0);
    if (cmd.contains("/") || OWN_ENVIRONMENT.contains(cmd)) return null;
    Path dir = given;
    if (dir == null) {
      if (notBlank(env.get("VIRTUAL_ENV")) || notBlank(env.get("CONDA_PREFIX"))) return null;
      dir = find(cmd, cwd, home, exists);
      if (dir == null) return null;
    } else if (!exists.test(dir.resolve("bin").resolve(cmd))) return null;
    return chosen(dir, cmd, argv, env, given != null ? null : cwd);
  }

  /** Why {@code given} (from {@code --venv}) cannot run {@code cmd}, or null. */
  public static String problem(Path given, String cmd, Predicate<Path> exists) {
    if (!exists.test(given)) return "--venv " + given + ": no such directory";
    if (!exists.test(given.resolve("bin").resolve("python")) && !exists.test(given.resolve("pyvenv.cfg")))
      return "--venv " + given + " is not a virtual environment (no bin/python or pyvenv.cfg)";
    if (cmd.contains("/")) return null;
    if (!exists.test(given.resolve("bin").resolve(cmd))) return "--venv " + given + " has no bin/" + cmd + "; install it there or drop --venv";
    return null;
  }

  private static Path find(String cmd, Path cwd, Path home, Predicate<Path> exists) {
    for (Path d = cwd; d != null; d = d.getParent()) {
      Path venv = d.resolve(".venv");
      if (exists.test(venv.resolve("bin").resolve(cmd))) return venv;
      if (d.equals(home) || exists.test(d.resolve(".git"))) return null;
    }
    return null;
  }

  private static Choice chosen(Path dir, String cmd, List<String> argv, Map<String, String> env, Path cwd) {
    List<String> run = new ArrayList<>(argv);
    run.set(0, dir.resolve("bin").resolve(cmd).toString());
    Map<String, String> e = new HashMap<>(env);
    String bin = dir.resolve("bin").toString();
    String path = env.get("PATH");
    e.put("PATH", path == null || path.isEmpty() ? bin : bin + ":" + path);
    e.put("VIRTUAL_ENV", dir.toString());
    e.remove("PYTHONHOME");
    return new Choice(dir, cwd == null ? dir.toString() : shown(dir, cwd), List.copyOf(run), Map.copyOf(e));
  }

  /** "./.venv", "../.venv", or the absolute path when it is not above the working directory. */
  static String shown(Path dir, Path cwd) {
    Path parent = dir.getParent();
    if (parent == null || !cwd.startsWith(parent)) return dir.toString();
    int up = cwd.getNameCount() - parent.getNameCount();
    if (up == 0) return "./" + dir.getFileName();
    return "../".repeat(up) + dir.getFileName();
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }
}
