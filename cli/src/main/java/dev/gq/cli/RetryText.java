package dev.gq.cli;

import dev.gq.api.ApiReplies.Retried;
import dev.gq.api.ApiReplies.RetrySkip;
import dev.gq.api.GqApi;
import dev.gq.core.job.PrintableText;
import java.io.PrintWriter;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How {@code gq retry} and {@code gq recover} report: the new job of each retried one
 * ("Retried 2 jobs: 216->482, 217->483"), the released holds ("Released the hold on group sweep;
 * its waiting jobs may start."), and each skipped job with its
 * reason. Long lists show the first {@value #SHOWN} and how many more.
 */
final class RetryText {
  static final int SHOWN = 12;

  private RetryText() {}

  static void print(GqApi.RetryReport r, PrintWriter out) {
    List<Retried> done = r.retried();
    if (!done.isEmpty()) {
      String pairs = done.stream().limit(SHOWN).map(p -> p.originalId() + "->" + p.newId()).collect(Collectors.joining(", "));
      if (done.size() > SHOWN) pairs += ", and " + (done.size() - SHOWN) + " more";
      out.println("Retried " + done.size() + " " + jobs(done.size()) + ": " + pairs);
    }
    r.released().forEach(g -> out.println("Released the hold on group " + PrintableText.escape(g) + "; its waiting jobs may start."));
    List<RetrySkip> skipped = r.skipped();
    if (skipped.isEmpty()) return;
    out.println("Skipped " + skipped.size() + " " + jobs(skipped.size()) + ":");
    skipped.stream().limit(SHOWN).forEach(s -> out.println("  " + line(s)));
    if (skipped.size() > SHOWN) out.println("  ... and " + (skipped.size() - SHOWN) + " more");
  }

  /** "216: is RUNNING; only ended jobs are retried": the id, then the reason without its "job 216". */
  static String line(RetrySkip s) {
    String reason = s.reason();
    String named = "job " + s.id();
    if (reason.startsWith(named + ": ")) reason = reason.substring(named.length() + 2);
    else if (reason.startsWith(named + " ")) reason = reason.substring(named.length() + 1);
    return s.id() + ": " + reason;
  }

  private static String jobs(int n) {
    return n == 1 ? "job" : "jobs";
  }
}
