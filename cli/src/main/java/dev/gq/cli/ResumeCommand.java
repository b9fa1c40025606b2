package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.ResumeReport;
import dev.gq.api.ApiReplies.Retried;
import dev.gq.api.ApiReplies.RetrySkip;
import dev.gq.core.job.PrintableText;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code gq resume JOB... [--from PATH]}: continues preempted (or otherwise stopped) jobs from a
 * checkpoint, each as a new attempt of its lineage that keeps its GPU count, group, key, retries,
 * priority and dependents. The checkpoint is {@code --from}, else the newest complete one
 * ({@code checkpoint-N} holding {@code trainer_state.json}) when the attempt starts, passed as the
 * job's {@code --resume-arg} says and always as {@code GQ_RESUME_FROM}; with none, the attempt
 * starts from scratch and its log says so. Not to be confused with {@code gq release}, which lets
 * held waiting jobs start.
 */
@Command(name = "resume", description = "Continue preempted jobs from their newest checkpoint, as new attempts.")
final class ResumeCommand implements Callable<Integer> {
  private final Invocation inv;

  @Parameters(paramLabel = "JOB", arity = "1..*", description = "The jobs to continue: 216, 216-218.")
  List<String> selectors = new ArrayList<>();

  @Option(names = "--from", paramLabel = "PATH", description = "Resume from this checkpoint instead of the newest.")
  String from;

  @Option(names = "--json", description = "Print the new attempts and the jobs skipped as JSON.")
  boolean json;

  ResumeCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    List<Long> ids = JobRanges.expand(selectors, "resume");
    String path = null;
    if (from != null) {
      // '' would resolve to the working directory, which is no checkpoint the user named
      if (from.isBlank()) throw new UsageException("--from needs a checkpoint's path; leave it out to resume from the newest");
      Path p = inv.io().cwd().resolve(from).toAbsolutePath().normalize();
      if (!Files.exists(p)) throw new UsageException("--from " + from + ": no such checkpoint (" + p + ")");
      if (!Files.isDirectory(p) && !Files.isRegularFile(p))
        throw new UsageException("--from " + from + " is not a checkpoint (a directory or a file): " + p + " is a special file");
      path = p.toString();
    }
    ResumeReport r = inv.api().resume(ids, path);
    if (json) inv.io().out().println(JsonView.pretty(json(r)));
    else print(r);
    // nothing resumed and something refused: a script must not read it as done
    boolean none = r.report().retried().isEmpty() && !r.report().skipped().isEmpty();
    return none ? ExitCode.FAILED : ExitCode.OK;
  }

  private void print(ResumeReport r) {
    var out = inv.io().out();
    for (Retried t : r.report().retried()) {
      String ckpt = r.from().get(t.newId());
      String how = ckpt != null ? "from " + ckpt + (from == null ? " (the newest complete checkpoint now; the newest when it starts is used)" : "")
          : "from scratch: no complete checkpoint under " + r.under().get(t.newId()) + " yet";
      out.println("Job " + t.originalId() + " resumes as job " + t.newId() + ", " + PrintableText.escape(how) + ".");
    }
    r.report().released().forEach(g -> out.println("Released the hold on group " + PrintableText.escape(g) + "; its waiting jobs may start."));
    List<RetrySkip> skipped = r.report().skipped();
    if (skipped.isEmpty()) return;
    out.println("Skipped " + skipped.size() + " job" + (skipped.size() == 1 ? "" : "s") + ":");
    skipped.forEach(s -> out.println("  " + RetryText.line(s)));
  }

  private static ObjectNode json(ResumeReport r) {
    ObjectNode o = JsonView.object();
    ArrayNode resumed = o.putArray("resumed");
    for (Retried t : r.report().retried()) {
      ObjectNode n = resumed.addObject();
      n.put("job", t.originalId());
      n.put("new_job", t.newId());
      n.put("from", r.from().get(t.newId()));
    }
    ArrayNode skipped = o.putArray("skipped");
    for (RetrySkip s : r.report().skipped()) skipped.addObject().put("job", s.id()).put("reason", s.reason());
    return o;
  }
}
