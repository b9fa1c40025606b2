package dev.gq.cli;

import static dev.gq.cli.ScreenText.DIM;
import static dev.gq.cli.ScreenText.cut;
import static dev.gq.cli.ScreenText.pad;
import static dev.gq.cli.ScreenText.padLeft;

import dev.gq.api.GqApi;
import dev.gq.core.job.PrintableText;
import dev.gq.core.schedule.FairWho;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;

/**
 * The lines of {@code gq top} on a shared machine, under the GPUs: each user's part of it and the
 * policy and bookings in force. Pure: {@link TopScreen} decides how many of them fit.
 */
final class TopUserRows {
  private static final DateTimeFormatter SHORT = DateTimeFormatter.ofPattern("MM-dd HH:mm", Locale.ROOT);

  private TopUserRows() {}

  /**
   * Everyone's part of a shared machine, under the GPUs: "user alice   4 held  4 running  6 waiting
   * (6 GPUs)" a line each, then the policy and the bookings in one line; none when this user is alone
   * on it without a policy or booking in force.
   */
  static List<AttributedString> userRows(TopData d) {
    List<AttributedString> rows = new ArrayList<>();
    GqApi.WhoReport who = d.who();
    if (!WhoCommand.shared(who)) return rows;
    for (FairWho.Row r : who.users()) {
      String s = "user " + pad(cut(PrintableText.escape(r.user()), 12), 13) + padLeft(String.valueOf(r.gpusHeld()), 2) + " held  "
          + padLeft(String.valueOf(r.jobsRunning()), 2) + " running  " + padLeft(String.valueOf(r.jobsWaiting()), 2) + " waiting";
      if (r.jobsWaiting() > 0) s += " (" + r.gpusWanted() + (r.gpusWanted() == 1 ? " GPU)" : " GPUs)");
      rows.add(new AttributedString(s, r.jobsWaiting() > 0 && r.gpusHeld() == 0
          ? AttributedStyle.DEFAULT.foreground(AttributedStyle.YELLOW) : AttributedStyle.DEFAULT));
    }
    StringBuilder sb = new StringBuilder("policy: ").append(PrintableText.escape(who.policy()));
    for (GqApi.BookingLine b : who.bookings())
      sb.append("  booked: ").append(BookCommand.gpus(b)).append(" by ").append(PrintableText.escape(b.user())).append(' ')
          .append(SHORT.format(b.start().atZone(d.zone()))).append('-').append(SHORT.format(b.end().atZone(d.zone())));
    rows.add(new AttributedString(sb.toString(), DIM));
    return rows;
  }

}
