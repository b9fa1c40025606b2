package dev.gq.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq submit SCRIPT}: queues a bash script, taking defaults from its {@code #gq} directives
 * (command-line options win over directives, directives over the defaults). The job runs
 * {@code /bin/bash /absolute/script} from the caller's directory; bash reads the script when the
 * job starts, so later edits change a job that still waits.
 */
@Command(name = "submit", description = "Queue a bash script ('#gq --OPTION=VALUE' lines set its defaults), or a batch of jobs.")
final class SubmitCommand implements Callable<Integer> {
  private static final long MAX_SCRIPT_BYTES = 8L << 20;
  private final Invocation inv;

  @Parameters(index = "0", arity = "0..1", paramLabel = "SCRIPT", description = "The script (~ and relative paths allowed).")
  String script;

  @Option(names = "--batch", paramLabel = "FILE", description = "Queue one job per line of FILE ('-': standard input), all or nothing.")
  String batch;

  @Option(names = {"-g", "--gpus"}, paramLabel = "N", description = "Whole GPUs (default: #gq --gpus=N, else 1).")
  Integer gpus;

  @Mixin
  SubmitOptions options = new SubmitOptions();

  SubmitCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    if (batch != null && script != null) throw new UsageException("give a SCRIPT or --batch FILE, not both");
    if (batch != null) return new BatchSubmit(inv, options).run(batch, gpus);
    if (script == null) throw new UsageException("a script is required, as in 'gq submit train.sh' (or --batch FILE)");
    if (gpus != null && gpus < 0) throw new UsageException("-g/--gpus must be 0 or more, not " + gpus);
    String name = Labels.checkOption("--name", options.name);
    String group = Labels.checkOption("--group", options.group);
    String key = Labels.checkOption("--key", options.key);
    Path path = resolve(script, inv.io().cwd(), inv.io().env());
    Path real = existingScript(path);
    String text = read(real);
    Directives d = Directives.parse(text);
    if (options.notify == null) options.notify = Directives.notify(text);
    int n = gpus != null ? gpus : d.gpus() != null ? d.gpus() : 1;
    String finalName = name != null ? name : d.name() != null ? d.name() : String.valueOf(path.getFileName());
    List<String> argv = List.of("/bin/bash", real.toString());
    Scheduling sched = options.scheduling(inv).over(d.scheduling());
    return new Submitter(inv).submit(argv, n, finalName, first(group, d.group()), first(key, d.key()), sched, options);
  }

  /** The script's path: {@code ~} from HOME, relative to the caller's directory. */
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

  private static Path existingScript(Path path) {
    if (!Files.isRegularFile(path)) {
      throw new RefusedException("script does not exist or is not a regular file: " + path);
    }
    try {
      return path.toRealPath();
    } catch (IOException e) {
      throw new RefusedException("cannot read script " + path + ": " + e.getMessage());
    }
  }

  private static String read(Path path) {
    try {
      long size = Files.size(path);
      if (size > MAX_SCRIPT_BYTES) {
        throw new RefusedException("script " + path + " is " + (size >> 20) + " MiB; gq reads scripts of at most "
            + (MAX_SCRIPT_BYTES >> 20) + " MiB for #gq directives");
      }
      return new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
    } catch (AccessDeniedException e) {
      throw new RefusedException("cannot read script " + path + ": permission denied");
    } catch (IOException e) {
      throw new RefusedException("cannot read script " + path + ": " + e.getMessage());
    }
  }

  private static String first(String a, String b) {
    return a != null ? a : b;
  }
}
