package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.JobSpec;
import dev.gq.core.ledger.KeyTaken;
import dev.gq.core.ledger.QueueControl;
import dev.gq.core.ledger.Queueing;
import dev.gq.core.ledger.SpecRules;
import dev.gq.core.pyenv.Conda;
import dev.gq.core.pyenv.Venvs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Turns a checked command into a {@link JobSpec} and submits it: resolves the working directory,
 * the default group (GQ_GROUP) and the environment to store (through {@link EnvFilter}), then
 * reports the new job, or the job that already holds the key, in text, JSON or as its bare id
 * ({@code -q}). Shared by
 * {@code run} and {@code submit}.
 */
final class Submitter {
  private final Invocation inv;

  Submitter(Invocation inv) {
    this.inv = inv;
  }

  /** Submits; {@code group} null means "from GQ_GROUP, if set". Returns the exit code. */
  int submit(List<String> argv, int gpus, String name, String group, String key, Scheduling sched, SubmitOptions opts)
      throws ApiException {
    opts.checkOutput();
    Map<String, String> env = inv.io().env();
    String cwd = workingDirectory(inv.io().cwd());
    EnvFilter.Result filtered = environment(opts);
    String finalGroup = group != null ? group : groupFromEnv(env);
    checkCap(finalGroup, opts.maxRunning);
    Map<String, String> kept = conda(filtered.kept(), env, cwd, opts);
    // the stored environment, as an activation would leave it
    Venvs.Choice venv = opts.conda != null ? null : venv(argv, kept, env.get("HOME"), cwd, opts);
    if (venv != null) {
      argv = venv.argv();
      kept = venv.env();
    }
    kept = NotifyOption.apply(kept, opts.notify);
    JobSpec spec = ClusterChoice.apply(sched.applyTo(new JobSpec(argv, cwd, kept, gpus, name, finalGroup, key)), opts,
        System.getenv(), inv.io());
    GqApi.SubmitResult result = inv.api().submit(spec, opts.maxRunning);
    if (result.queueing().capLine() != null) inv.io().err().println("gq: " + result.queueing().capLine());
    if (!result.skipped()) warnDropped(filtered.dropped());
    String missing = spec.onCluster() || result.skipped() ? null : ProgramLookup.missing(argv.get(0), kept.get("PATH"), cwd);
    if (missing != null) inv.io().err().println("gq: warning: " + missing);
    if (!result.skipped() && venv != null) inv.io().err().println("gq: using " + venv.shown());
    if (opts.json) printJson(result);
    else if (opts.parsable) printId(result);
    else printText(result, key);
    if (!result.skipped()) noteHeld(Collections.singletonMap(result.jobId(), finalGroup), Map.of(result.jobId(), result.queueing()));
    return ExitCode.OK;
  }

  /**
   * Says on stderr, in one line, when the held queue or a held group keeps the new jobs (job id → its
   * group) waiting, from what the submit's own answer said of each ({@code told}).
   */
  void noteHeld(Map<Long, String> groupOf, Map<Long, Queueing> told) {
    boolean queueHeld = false;
    Map<String, String> holds = new HashMap<>();
    for (Map.Entry<Long, Queueing> e : told.entrySet()) {
      queueHeld |= e.getValue().queueHeld();
      String group = groupOf.get(e.getKey());
      if (group != null && e.getValue().groupHold() != null) holds.put(group, e.getValue().groupHold());
    }
    String note = QueueNotes.afterSubmit(new GqApi.QueueState(queueHeld, holds), groupOf);
    if (note != null) inv.io().err().println("gq: " + note);
  }

  /**
   * The virtual environment the command runs in ({@link dev.gq.core.pyenv.Venvs}): {@code --venv} (checked), else the
   * nearest {@code .venv} holding it; none with {@code --no-venv}. A bad {@code --venv} is refused.
   */
  private static Venvs.Choice venv(List<String> argv, Map<String, String> env, String home, String cwd, SubmitOptions opts) {
    if (opts.venv != null && opts.noVenv) throw new UsageException("give --venv PATH or --no-venv, not both");
    Predicate<Path> exists = p -> Files.exists(p);
    Path given = null;
    if (opts.venv != null) {
      given = Path.of(cwd).resolve(opts.venv).toAbsolutePath().normalize();
      String problem = Venvs.problem(given, argv.get(0), exists);
      if (problem != null) throw new RefusedException(problem);
    }
    return Venvs.choose(argv, env, Path.of(cwd), home == null || home.isEmpty() ? null : Path.of(home), given, opts.noVenv, exists);
  }

  /**
   * {@code kept} with the conda environment {@code --conda} names (none: unchanged), which the job is
   * activated in when it starts ({@link dev.gq.core.pyenv.Conda}); one that cannot be found is refused.
   */
  static Map<String, String> conda(Map<String, String> kept, Map<String, String> env, String cwd, SubmitOptions opts) {
    if (opts.conda == null) return kept;
    if (opts.venv != null) throw new UsageException("give --conda or --venv, not both");
    if (opts.conda.isBlank()) throw new UsageException("--conda needs an environment's name or path");
    var r = Conda.resolve(opts.conda, env, Path.of(cwd), p -> Files.exists(p));
    if (r.problem() != null) throw new RefusedException(r.problem());
    Map<String, String> out = new HashMap<>(kept);
    out.put(Conda.BASE_VARIABLE, r.base().toString());
    out.put(Conda.PREFIX_VARIABLE, r.prefix().toString());
    return Map.copyOf(out);
  }

  /** The venvs of a batch's lines, looked for once per command and directory. */
  BatchVenvs venvs(SubmitOptions opts) {
    return new BatchVenvs(inv.io().env().get("HOME"), opts);
  }

  /** Applies {@link dev.gq.core.pyenv.Venvs} to each spec of a batch; remembers what it found and which it used. */
  static final class BatchVenvs {
    private final String home;
    private final SubmitOptions opts;
    private final Map<List<String>, Optional<Venvs.Choice>> seen = new HashMap<>();
    private final Set<String> used = new LinkedHashSet<>();
    private final Map<Map<String, String>, Map<Venvs.Choice, Map<String, String>>> activated =
        new IdentityHashMap<>();

    BatchVenvs(String home, SubmitOptions opts) {
      this.home = home;
      this.opts = opts;
    }

    JobSpec apply(JobSpec spec) {
      if (spec.argv().isEmpty()) return spec;
      List<String> key = List.of(spec.argv().get(0), spec.cwd(), String.valueOf(spec.env().get("VIRTUAL_ENV")),
          String.valueOf(spec.env().get("CONDA_PREFIX")));
      var found = seen.computeIfAbsent(key, k -> Optional.ofNullable(
          venv(List.of(spec.argv().get(0)), spec.env(), home, spec.cwd(), opts)));
      if (found.isEmpty()) return spec;
      var c = found.get();
      used.add(c.shown());
      List<String> argv = new ArrayList<>(spec.argv());
      argv.set(0, c.argv().get(0));
      // the lines of a batch share one environment: so do their activated ones
      Map<String, String> env = activated.computeIfAbsent(spec.env(), x -> new IdentityHashMap<>()).computeIfAbsent(c, x -> {
        Map<String, String> e = new HashMap<>(spec.env());
        e.put("PATH", c.env().get("PATH"));
        e.put("VIRTUAL_ENV", c.env().get("VIRTUAL_ENV"));
        e.remove("PYTHONHOME");
        return Map.copyOf(e);
      });
      return spec.withArgv(argv).withEnv(env);
    }

    Set<String> used() {
      return used;
    }
  }

  /** The caller's environment as it will be stored: secret-looking variables dropped unless kept. */
  EnvFilter.Result environment(SubmitOptions opts) {
    Map<String, String> env = inv.io().env();
    boolean keepAll = opts.envAll || EnvFilter.keepAllFromEnv(env);
    return EnvFilter.filter(env, opts.envKeep, keepAll);
  }

  /** The caller's directory, symlinks resolved; refused when it is gone. */
  static String workingDirectory(Path cwd) {
    String gone = "the working directory " + cwd + " no longer exists; cd somewhere that exists and submit again";
    if (cwd == null || !Files.isDirectory(cwd)) throw new RefusedException(gone);
    try {
      return cwd.toRealPath().toString();
    } catch (IOException e) {
      throw new RefusedException(gone);
    }
  }

  /**
   * Checks the cap {@code --max-running} asks for on {@code group}; the submit sets it in the write that
   * queues the jobs, so that none of them starts past it, and says so when it changes (a sweep submits
   * each of its cells with the same cap: only the first says it).
   */
  static void checkCap(String group, Integer maxRunning) {
    if (maxRunning == null) return;
    if (group == null) throw new UsageException("--max-running caps a group: give --group GROUP or set GQ_GROUP");
    String bad = QueueControl.maxRunningProblem(maxRunning);
    if (bad != null) throw new UsageException(bad);
  }

  static String groupFromEnv(Map<String, String> env) {
    String group = env.get("GQ_GROUP");
    if (group == null || group.isEmpty()) return null;
    String problem = SpecRules.labelProblem("GQ_GROUP", group);
    if (problem != null) throw new RefusedException(problem + "; fix or unset it, or pass --group");
    return group;
  }

  /** Names the secrets left out, in one line, the first time this set of names is left out. */
  void warnDropped(List<String> dropped) throws ApiException {
    if (dropped.isEmpty()) return;
    String names = String.join(", ", dropped);
    if (!inv.api().firstNotice("env-dropped " + names)) return;
    PrintWriter err = inv.io().err();
    String noun = dropped.size() == 1 ? "secret" : "secrets";
    err.println("gq: not storing " + names + " (" + noun + "); keep with --env-keep NAME or --env-all"
        + " (said once for these names)");
  }

  private void printText(GqApi.SubmitResult result, String key) {
    if (result.skipped()) {
      String line = result.message() != null ? result.message() : KeyTaken.message(key, result.state(), result.jobId());
      inv.io().out().println(line);
      return;
    }
    inv.io().out().println("Submitted job " + result.jobId());
    if (result.message() != null) inv.io().err().println("gq: " + result.message());
  }

  /** The id alone on stdout (a skipped submit's: the key holder's); a notice still goes to stderr. */
  private void printId(GqApi.SubmitResult result) {
    inv.io().out().println(result.jobId());
    if (!result.skipped() && result.message() != null) inv.io().err().println("gq: " + result.message());
  }

  private void printJson(GqApi.SubmitResult result) {
    ObjectNode n = JsonView.object();
    n.put("id", result.jobId());
    n.put("skipped", result.skipped());
    n.put("state", result.state() == null ? null : result.state().name());
    n.put("message", result.message());
    inv.io().out().println(JsonView.pretty(n));
  }

  /** The path of a script or batch file the caller named: {@code ~} from HOME, relative to the caller's directory. */
  static Path resolve(String script, Path cwd, Map<String, String> env) {
    String home = env.get("HOME");
    String expanded = script;
    if (home != null && !home.isEmpty() && (script.equals("~") || script.startsWith("~/"))) {
      expanded = home + script.substring(1);
    }
    try {
      return cwd.resolve(expanded).normalize();
    } catch (InvalidPathException e) {
      throw new RefusedException("script does not exist or is not a regular file: " + script);
    }
  }
}
