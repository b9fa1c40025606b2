package dev.gq.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.PrintableText;
import dev.gq.core.schedule.FairWho;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq who}: everyone's part of a shared machine, as this user's daemon sees it: per user the
 * GPUs their jobs hold and how many jobs hold them (from the GPU leases every gq keeps), how many
 * jobs wait for how many GPUs and since when (from the demand files every gq publishes), then the
 * machine policy in force or the line why none is, why GPUs are held for someone (an admin's drain for
 * every user's gq, a booking), and the files not counted with why.
 */
@Command(name = "who", description = "Show every user's GPUs held and jobs waiting on this machine, and the machine policy in force.")
final class WhoCommand implements Callable<Integer> {
  private final Invocation inv;

  @Option(names = "--json", description = "Print the users, the policy and the files not counted as JSON.")
  boolean json;

  WhoCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    GqApi.WhoReport who = inv.api().who();
    PrintWriter out = inv.out();
    if (who == null) throw new RefusedException("this daemon does not show the shared machine; restart it with this gq (gq daemon stop, then gq daemon start)");
    if (json) {
      out.println(JsonView.pretty(json(who)));
      return ExitCode.OK;
    }
    ZoneId zone = Times.zone(inv.io().env());
    if (who.users().isEmpty()) out.println("Nobody holds or waits for GPUs.");
    else {
      TextTable t = new TextTable(List.of("USER", "GPUS HELD", "JOBS ON GPUS", "WAITING", "GPUS WANTED", "WAITING SINCE"));
      for (FairWho.Row r : who.users())
        t.add(List.of(r.user(), Integer.toString(r.gpusHeld()), Integer.toString(r.jobsRunning()),
            Integer.toString(r.jobsWaiting()), Integer.toString(r.gpusWanted()),
            r.waitingSince() == null ? "-" : Times.format(r.waitingSince(), zone)));
      t.print(out, TextTable.width(inv.io()));
    }
    out.println("Policy: " + who.policy());
    if (who.demandProblem() != null) out.println("Demand: " + PrintableText.escape(who.demandProblem()));
    who.drains().forEach((gpu, why) -> out.println("Drained: " + gpu + " " + PrintableText.escape(why)));
    for (GqApi.BookingLine b : who.bookings()) out.println("Booked: " + booking(b, zone));
    who.ignored().forEach((name, why) -> out.println("Not counted: " + name + ": " + why));
    return ExitCode.OK;
  }

  /**
   * Whether {@code gq gpu} and {@code gq top} show everyone's part: when more than one user holds or
   * waits for GPUs, or a policy or a booking is in force. A lone user on a machine without either sees
   * nothing more than before.
   */
  static boolean shared(GqApi.WhoReport who) {
    return who != null && (who.users().size() > 1 || who.policyInForce() || !who.bookings().isEmpty() || !who.drains().isEmpty());
  }

  /** One user's part in one line: "4 GPUs held, 4 jobs running, 6 waiting for 6 GPUs since 2026-12-02 01:00:00". */
  static String part(FairWho.Row r, ZoneId zone) {
    String s = count(r.gpusHeld(), "GPU") + " held, " + count(r.jobsRunning(), "job") + " running, " + r.jobsWaiting() + " waiting";
    if (r.jobsWaiting() > 0)
      s += " for " + count(r.gpusWanted(), "GPU") + (r.waitingSince() == null ? "" : " since " + Times.format(r.waitingSince(), zone));
    return s;
  }

  /** A booking in one line: "GPUs 2, 3 by bob from 2026-12-02 14:00:00 to 2026-12-02 17:00:00 (b1)". */
  static String booking(GqApi.BookingLine b, ZoneId zone) {
    return BookCommand.gpus(b) + " by " + PrintableText.escape(b.user()) + " from " + Times.format(b.start(), zone) + " to "
        + Times.format(b.end(), zone) + " (" + b.id() + ")";
  }

  /**
   * The part of {@code gq gpu} after its table: a line per user, the policy and the bookings in force;
   * {@code gq who} has the table, the files not counted and the JSON.
   */
  static List<String> section(GqApi.WhoReport who, ZoneId zone) {
    List<String> lines = new ArrayList<>();
    lines.add("Everyone on this machine (gq who):");
    int w = who.users().stream().mapToInt(r -> PrintableText.escape(r.user()).length()).max().orElse(0);
    for (FairWho.Row r : who.users()) lines.add("  " + ScreenText.pad(PrintableText.escape(r.user()), w) + "  " + part(r, zone));
    lines.add("Policy: " + PrintableText.escape(who.policy()));
    who.drains().forEach((gpu, why) -> lines.add("Drained: " + gpu + " " + PrintableText.escape(why)));
    for (GqApi.BookingLine b : who.bookings()) lines.add("Booked: " + booking(b, zone));
    return lines;
  }

  private static String count(int n, String what) {
    return n + " " + what + (n == 1 ? "" : "s");
  }

  static ObjectNode json(GqApi.WhoReport who) {
    ObjectNode n = JsonView.object();
    ArrayNode users = n.putArray("users");
    for (FairWho.Row r : who.users()) {
      ObjectNode u = users.addObject();
      u.put("user", r.user());
      u.put("uid", r.uid());
      u.put("gpus_held", r.gpusHeld());
      u.put("jobs_on_gpus", r.jobsRunning());
      u.put("jobs_waiting", r.jobsWaiting());
      u.put("gpus_wanted", r.gpusWanted());
      u.put("waiting_since", r.waitingSince() == null ? null : r.waitingSince().toString());
    }
    n.put("policy", who.policy());
    n.put("policy_in_force", who.policyInForce());
    ArrayNode bookings = n.putArray("bookings");
    for (GqApi.BookingLine b : who.bookings()) {
      ObjectNode o = bookings.addObject();
      o.put("id", b.id());
      o.put("user", b.user());
      ArrayNode idx = o.putArray("gpu_indices");
      b.indices().forEach(idx::add);
      ArrayNode uuids = o.putArray("gpu_uuids");
      b.uuids().forEach(uuids::add);
      o.put("start", b.start().toString());
      o.put("end", b.end().toString());
    }
    ObjectNode drains = n.putObject("drained_for_everyone");
    who.drains().forEach(drains::put);
    ObjectNode ignored = n.putObject("not_counted");
    who.ignored().forEach(ignored::put);
    return n;
  }
}
