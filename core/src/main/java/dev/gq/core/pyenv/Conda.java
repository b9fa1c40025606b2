package dev.gq.core.pyenv;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Running a job inside a conda environment ({@code --conda NAME|PATH}) so that its activation hooks
 * run: under a daemon (or systemd) there is no shell that ran {@code conda init}, so a bare
 * {@code PATH} change misses what {@code etc/conda/activate.d} sets (CUDA paths, compilers). The
 * job's command is stored as given, with the installation and the environment in its environment
 * ({@link #BASE_VARIABLE}, {@link #PREFIX_VARIABLE}), and run as {@code bash -c 'source
 * BASE/etc/profile.d/conda.sh && conda activate PREFIX && exec "$@"' gq-conda ARGV...}: conda's own
 * shell functions activate the environment, then {@code exec} makes the command the job's main
 * process (signals reach it, not a wrapper). The
 * conda installation ({@code BASE}) comes from {@code CONDA_EXE} or a {@code conda} on the PATH;
 * a name is looked for under {@code BASE/envs}, {@code ~/.conda/envs} and {@code CONDA_ENVS_PATH}
 * ({@code base} is BASE itself); a path must hold {@code conda-meta}. The file checks are the
 * caller's ({@code exists}). Pure.
 */
public final class Conda {
  private Conda() {}

  /** The conda installation and the environment found in it; or why not ({@code problem}). */
  public record Resolved(Path base, Path prefix, String problem) {}

  /** Set in a job's stored environment by {@code --conda}: the installation, and the environment the job runs in. */
  public static final String BASE_VARIABLE = "GQ_CONDA_BASE", PREFIX_VARIABLE = "GQ_CONDA_PREFIX";

  static final String SCRIPT = "source \"$GQ_CONDA_BASE/etc/profile.d/conda.sh\" && conda activate \"$GQ_CONDA_PREFIX\" && exec \"$@\"";

  /**
   * Resolves {@code --conda} {@code spec} for {@code argv} run from {@code cwd}, with the caller's
   * {@code env} (CONDA_EXE, PATH, HOME, CONDA_ENVS_PATH).
   */
  public static Resolved resolve(String spec, Map<String, String> env, Path cwd, Predicate<Path> exists) {
    Path base = base(env, exists);
    if (base == null)
      return problem("--conda needs conda: CONDA_EXE is not set and no conda is on your PATH; activate conda in your shell first");
    if (!exists.test(base.resolve("etc/profile.d/conda.sh")))
      return problem("--conda: " + base + "/etc/profile.d/conda.sh is missing, so the environment cannot be activated");
    Path prefix = prefix(spec, base, env, cwd, exists);
    if (prefix == null) return problem("--conda: no conda environment '" + spec + "' (looked in " + searched(base, env) + "); "
        + "create it ('conda create -n " + spec + "') or give its path");
    return new Resolved(base, prefix, null);
  }

  /** The argv that activates {@code prefix} of the installation {@code base}, then execs {@code argv}. */
  public static List<String> wrap(Path base, Path prefix, List<String> argv) {
    List<String> out = new ArrayList<>(List.of("bash", "-c", SCRIPT.replace("$GQ_CONDA_BASE", quoteless(base))
        .replace("$GQ_CONDA_PREFIX", quoteless(prefix)), "gq-conda"));
    out.addAll(argv);
    return List.copyOf(out);
  }

  /** The path inside double quotes of the script: $, `, " and \\ escaped. */
  private static String quoteless(Path p) {
    return p.toString().replace("\\", "\\\\").replace("\"", "\\\"").replace("$", "\\$").replace("`", "\\`");
  }

  private static Resolved problem(String why) {
    return new Resolved(null, null, why);
  }

  /** The conda installation: two levels above CONDA_EXE (BASE/bin/conda), else above the conda on PATH. */
  static Path base(Map<String, String> env, Predicate<Path> exists) {
    String exe = env.get("CONDA_EXE");
    if (exe != null && !exe.isBlank() && exists.test(Path.of(exe))) return Path.of(exe).toAbsolutePath().getParent().getParent();
    String path = env.get("PATH");
    if (path == null) return null;
    for (String dir : path.split(":")) {
      if (dir.isEmpty()) continue;
      Path c = Path.of(dir).resolve("conda");
      // BASE/bin/conda or BASE/condabin/conda
      if (exists.test(c) && Path.of(dir).isAbsolute() && Path.of(dir).getParent() != null) return Path.of(dir).getParent();
    }
    return null;
  }

  private static Path prefix(String spec, Path base, Map<String, String> env, Path cwd, Predicate<Path> exists) {
    if (spec.contains("/")) {
      Path p = cwd.resolve(spec).normalize();
      return exists.test(p.resolve("conda-meta")) ? p : null;
    }
    if (spec.equals("base")) return base;
    for (Path dir : dirs(base, env)) {
      Path p = dir.resolve(spec);
      if (exists.test(p.resolve("conda-meta"))) return p;
    }
    return null;
  }

  private static List<Path> dirs(Path base, Map<String, String> env) {
    List<Path> out = new ArrayList<>();
    String extra = env.get("CONDA_ENVS_PATH");
    if (extra != null) for (String d : extra.split(":")) if (!d.isBlank()) out.add(Path.of(d));
    out.add(base.resolve("envs"));
    String home = env.get("HOME");
    if (home != null && !home.isBlank()) out.add(Path.of(home, ".conda", "envs"));
    return out;
  }

  private static String searched(Path base, Map<String, String> env) {
    return String.join(", ", dirs(base, env).stream().map(Path::toString).toList());
  }
}
