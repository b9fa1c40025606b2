package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.BatchOutcome;
import dev.gq.core.ledger.KeyTaken;
import dev.gq.core.ledger.Queueing;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gq submit --batch FILE} ({@code -}: standard input): reads the jobs, one a line, checks
 * them all, and submits them in one request, all or nothing. The command line's options are every
 * line's defaults. Reports the new job ids as ranges and the lines skipped because their key is
 * taken; with {@code -q}, one id a line in the batch's order (a skipped line's: the key holder's).
 */
final class BatchSubmit {
  static final long MAX_BYTES = 16L << 20;
  private static final int SHOWN = 12;
  private final Invocation inv;
  private final SubmitOptions options;

  BatchSubmit(Invocation inv, SubmitOptions options) {
    this.inv = inv;
    this.options = options;
  }

  int run(String source, Integer gpus) throws ApiException {
    if (options.key != null) throw new UsageException("--key names one job; give each line of the batch its own \"key\"");
    if (gpus != null && gpus < 0) throw new UsageException("-g/--gpus must be 0 or more, not " + gpus);
    options.checkOutput();
    String name = Labels.checkOption("--name", options.name);
    String group = Labels.checkOption("--group", options.group);
    Submitter submitter = new Submitter(inv);
    EnvFilter.Result env = submitter.environment(options);
    String cwd = Submitter.workingDirectory(inv.io().cwd());
    var defaults = new BatchDefaults(gpus == null ? 1 : gpus, name, group != null ? group : Submitter.groupFromEnv(inv.io().env()),
        cwd, inv.io().cwd(), NotifyOption.apply(Submitter.conda(env.kept(), inv.io().env(), cwd, options), options.notify),
        options.scheduling(inv));
    BatchLines lines = BatchLines.of(read(source), defaults);
    if (lines.isEmpty()) throw new RefusedException("the batch " + shown(source) + " holds no jobs, only blank or # lines");
    Submitter.BatchVenvs venvs = submitter.venvs(options);
    // a venv is refused only where --venv names one
    if (options.conda == null) lines = lines.changedBy(venvs::apply, options.venv != null);
    String profile = ClusterChoice.profile(options, System.getenv(), inv.io());
    if (profile != null) lines = lines.changedBy(s -> ClusterChoice.onto(s, profile, options), true);
    Submitter.checkCap(defaults.group(), options.maxRunning);
    List<BatchOutcome> outcomes = inv.api().submitBatch(lines, defaults.group(), options.maxRunning);
    String capLine = outcomes.isEmpty() ? null : outcomes.get(0).queueing().capLine();
    if (capLine != null) inv.io().err().println("gq: " + capLine);
    if (outcomes.stream().anyMatch(o -> !o.skipped())) {
      submitter.warnDropped(env.dropped());
      venvs.used().forEach(v -> inv.io().err().println("gq: using " + v));
    }
    if (options.json) inv.io().out().println(JsonView.pretty(json(outcomes)));
    else if (options.parsable) outcomes.forEach(o -> inv.io().out().println(o.jobId()));
    else print(outcomes, inv.io().out());
    noteHeld(submitter, lines, outcomes);
    return ExitCode.OK;
  }

  /** The one note when the held queue or a held group keeps the batch's new jobs waiting. */
  private static void noteHeld(Submitter submitter, BatchLines lines, List<BatchOutcome> outcomes) {
    Map<Integer, String> groupOfLine = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) groupOfLine.put(lines.line(i), lines.group(i));
    Map<Long, String> groupOf = new HashMap<>();
    Map<Long, Queueing> told = new HashMap<>();
    for (BatchOutcome o : outcomes) {
      if (o.skipped()) continue;
      groupOf.put(o.jobId(), groupOfLine.get(o.line()));
      told.put(o.jobId(), o.queueing());
    }
    if (!groupOf.isEmpty()) submitter.noteHeld(groupOf, told);
  }

  private String read(String source) {
    if (source.equals("-")) {
      return inv.io().readStdin().orElseThrow(() -> new RefusedException("there is no standard input to read the batch from;"
          + " pipe the jobs in, or pass --batch FILE"));
    }
    Path path = Submitter.resolve(source, inv.io().cwd(), inv.io().env());
    try {
      if (!Files.isRegularFile(path)) throw new RefusedException("batch file " + path + " does not exist or is not a regular file");
      long size = Files.size(path);
      if (size > MAX_BYTES) throw new RefusedException("batch file " + path + " is larger than 16 MiB; split it into several batches");
      return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(path))).toString();
    } catch (CharacterCodingException e) {
      throw new RefusedException("batch file " + path + " is not UTF-8 text; convert it (iconv -t UTF-8) and submit again");
    } catch (IOException e) {
      throw new RefusedException("cannot read batch file " + path + ": " + e.getMessage());
    }
  }

  private static String shown(String source) {
    return source.equals("-") ? "on standard input" : source;
  }

  private static void print(List<BatchOutcome> outcomes, PrintWriter out) {
    List<Long> ids = outcomes.stream().filter(o -> !o.skipped()).map(BatchOutcome::jobId).toList();
    List<BatchOutcome> skipped = outcomes.stream().filter(BatchOutcome::skipped).toList();
    if (!ids.isEmpty()) out.println("Submitted " + ids.size() + (ids.size() == 1 ? " job: " : " jobs: ") + JobRanges.format(ids));
    if (skipped.isEmpty()) return;
    out.println("Skipped " + skipped.size() + (skipped.size() == 1 ? " line" : " lines") + " whose key is taken:");
    skipped.stream().limit(SHOWN).forEach(o -> out.println("  line " + o.line() + ": " + reason(o)));
    if (skipped.size() > SHOWN) out.println("  ... and " + (skipped.size() - SHOWN) + " more");
  }

  private static String reason(BatchOutcome o) {
    String m = o.message();
    return m == null ? KeyTaken.reason(null, o.state(), o.jobId()) : KeyTaken.reasonOf(m);
  }

  private static ArrayNode json(List<BatchOutcome> outcomes) {
    ArrayNode a = JsonView.object().arrayNode();
    for (BatchOutcome o : outcomes) {
      ObjectNode n = a.addObject();
      n.put("line", o.line());
      n.put("id", o.jobId());
      n.put("skipped", o.skipped());
      n.put("state", o.state() == null ? null : o.state().name());
      n.put("message", o.message());
    }
    return a;
  }
}
