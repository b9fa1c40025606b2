package dev.gq.cli;

import static dev.gq.cli.ScreenText.DIM;
import static dev.gq.cli.ScreenText.TITLE;
import static dev.gq.cli.ScreenText.bar;
import static dev.gq.cli.ScreenText.plain;

import dev.gq.core.job.Job;
import dev.gq.core.job.PrintableText;
import java.util.ArrayList;
import java.util.List;
import org.jline.utils.AttributedString;

/**
 * The two pages of {@code gq top} besides its main screen: the help (every key, and what the
 * screen shows) and the selected job's log, followed while the job runs. Pure, like
 * {@link TopScreen}: exactly {@code height} lines when {@code height} is above 0.
 */
final class TopPages {
  private TopPages() {}

  static List<AttributedString> helpScreen(TopData d, TopView v, int width, int height) {
    List<AttributedString> lines = new ArrayList<>();
    lines.add(bar(" gq top: keys", width, TITLE));
    for (String l : List.of(
        "↑ ↓  j k        move between jobs (Page Up/Down, Home/End, g/G)",
        "Enter  l        the selected job's log, following it; q or Esc comes back",
        "c               cancel the selected job (asks first: y to do it)",
        "h  r            hold / release the selected waiting job (asks first)",
        "p               preempt the selected running job: TERM, 2 min to save (asks first)",
        "f  /            filter: a group's name, or a state (running, waiting, failed, held, live);",
        "                Enter applies, an empty filter shows all, Esc in the list clears it",
        "?               this help; any key comes back",
        "q  Ctrl-C       quit",
        "",
        "GPUs: state (only FREE gets new jobs; SHARED only shared ones while their memory fits),",
        "holder, utilisation, memory, temperature, power and the utilisation of the last readings;",
        "blank where the GPU does not say. Under a GPU: its shared jobs' shares, why it is drained or",
        "unwell, and its processes: a job's, or an outside user's with its age and command.",
        "On a shared machine, under the GPUs: each user's GPUs held and jobs running and waiting,",
        "then the machine policy and the bookings (gq who says more).",
        "A job whose GPUs have shown 0% for a while is marked idle: a hint, gq does not stop it.",
        "Nothing changes without a y to the question on the last line."))
      lines.add(plain(" " + l));
    if (height > 0) {
      while (lines.size() < height - 1) lines.add(AttributedString.EMPTY);
      while (lines.size() > height - 1) lines.remove(lines.size() - 1);
      lines.add(new AttributedString("any key: back", DIM));
    }
    return lines;
  }

  static List<AttributedString> logScreen(TopData d, TopView v, int width, int height) {
    List<AttributedString> lines = new ArrayList<>();
    Job j = d.logJob();
    String head = j == null ? " log: job " + v.selected() + " is gone"
        : " log of job " + j.id() + "  " + PrintableText.escape(JobColumn.name(j)) + "  " + j.state()
            + (j.state().terminal() ? "" : "  (following)");
    lines.add(bar(head, width, TITLE));
    List<String> log = d.log();
    int room = height > 0 ? height - 2 : log.size();
    if (log.isEmpty()) lines.add(new AttributedString(j == null || j.logPath() == null ? "  (no log)" : "  (the log is empty)", DIM));
    for (String l : log.subList(Math.max(0, log.size() - room), log.size())) lines.add(plain(l));
    if (height > 0) {
      while (lines.size() < height - 1) lines.add(AttributedString.EMPTY);
      lines.add(new AttributedString("q/Esc back to the list   (gq logs -f " + (j == null ? "" : j.id()) + " follows it outside)", DIM));
    }
    return lines;
  }
}
