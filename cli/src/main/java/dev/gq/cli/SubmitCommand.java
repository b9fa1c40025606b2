package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.core.job.PrintableText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

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

  @Parameters(index = "1..*", arity = "0..*", paramLabel = "ARG",
      description = "Arguments for the script ($1, $2, ...): every word after SCRIPT, as with sbatch.")
  List<String> args = List.of();

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

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
    noteOptionsAfterScript();
    if (batch != null) return new BatchSubmit(inv, options).run(batch, gpus);
    if (script == null) throw new UsageException("a script is required, as in 'gq submit train.sh' (or --batch FILE)");
    if (gpus != null && gpus < 0) throw new UsageException("-g/--gpus must be 0 or more, not " + gpus);
    String name = Labels.checkOption("--name", options.name);
    String group = Labels.checkOption("--group", options.group);
    String key = Labels.checkOption("--key", options.key);
    Path path = Submitter.resolve(script, inv.io().cwd(), inv.io().env());
    if (!Files.isRegularFile(path) && !script.contains("/")
        && ProgramLookup.missing(script, inv.io().env().get("PATH"), inv.io().cwd().toString()) == null)
      // 'gq submit python train.py', 'gq submit -- bash -c ...': a command where a script belongs
      throw new UsageException("there is no script '" + PrintableText.escape(script) + "' here and " + PrintableText.escape(script)
          + " is a command; gq submit queues a script: to queue a command, use 'gq run CMD...' or 'gq -g N CMD...'");
    Path real = existingScript(path);
    String text = read(real);
    Directives d = Directives.parse(text);
    if (options.notify == null) options.notify = Directives.notify(text);
    int n = gpus != null ? gpus : d.gpus() != null ? d.gpus() : 1;
    String finalName = name != null ? name : d.name() != null ? d.name() : String.valueOf(path.getFileName());
    List<String> argv = new ArrayList<>(List.of("/bin/bash", real.toString()));
    argv.addAll(args);
    if (pythonFile(real, text))
      inv.io().err().println("gq: warning: " + path.getFileName() + " is a Python file and gq submit runs scripts with bash;"
          + " to run it with Python: gq -g " + n + " python " + ShellQuote.join(List.of(script)));
    Scheduling sched = options.scheduling(inv).over(d.scheduling());
    return new Submitter(inv).submit(argv, n, finalName, first(group, d.group()), first(key, d.key()), sched, options);
  }

  /**
   * Says, once, when a word after SCRIPT is one of submit's own options: it goes to the script (as
   * with sbatch), which someone used to writing options last may not expect.
   */
  private void noteOptionsAfterScript() {
    for (String a : args) {
      String name = a.startsWith("-") ? a.split("=", 2)[0] : null;
      if (name == null || spec == null || spec.findOption(name) == null) continue;
      inv.io().err().println("gq: note: " + PrintableText.escape(name) + " after the script is passed to the script, as"
          + " with sbatch; put gq's options before SCRIPT");
      return;
    }
  }

  /** A script bash would misread: named *.py, or with a python #! line. */
  static boolean pythonFile(Path script, String text) {
    String first = text.lines().findFirst().orElse("");
    boolean pythonLine = first.startsWith("#!") && first.contains("python");
    return pythonLine || String.valueOf(script.getFileName()).endsWith(".py");
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
