package dev.gq.cli;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.core.job.Durations;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code gq book}: books GPUs of this machine for a window, for every user's gq to keep free of
 * other users' jobs (before the window, a job may start on them only when its {@code --time} ends
 * by the start; during it, only the booker's jobs); lists the bookings in force; cancels one of
 * this user's. A booking is refused in one line when it overlaps another or breaks the machine
 * policy. Nothing running is stopped.
 */
@Command(name = "book", description = "Book GPUs of this machine for a time window (gq book -g 2 --at 14:00 --for 3h); --list, --cancel ID.")
final class BookCommand implements Callable<Integer> {
  private final Invocation inv;

  @Option(names = {"-g", "--gpus"}, paramLabel = "N", description = "How many GPUs to book (gq chooses ones free of bookings in the window).")
  Integer count;

  @Option(names = "--gpu", paramLabel = "GPU", split = ",", description = "Book these GPUs, by index or UUID (repeatable; instead of -g).")
  List<String> named = new ArrayList<>();

  @Option(names = "--at", paramLabel = "WHEN", description = "When the window starts: " + BeginTime.FORMS + ".")
  String at;

  @Option(names = "--for", paramLabel = "DURATION", description = "How long the window lasts: 30m, 3h, 1d.")
  String length;

  @Option(names = "--list", description = "List the bookings in force on this machine.")
  boolean list;

  @Option(names = "--cancel", paramLabel = "ID", description = "Cancel your booking ID.")
  String cancel;

  BookCommand(Invocation inv) {
    this.inv = inv;
  }

  @Override
  public Integer call() throws ApiException {
    PrintWriter out = inv.out();
    ZoneId zone = Times.zone(inv.io().env());
    if (list && cancel != null) throw new UsageException("give --list or --cancel ID, not both");
    if (list) {
      List<GqApi.BookingLine> all = inv.api().bookings();
      if (all.isEmpty()) out.println("No GPUs are booked on this machine.");
      else {
        TextTable t = new TextTable(List.of("ID", "USER", "GPUS", "FROM", "TO"));
        for (GqApi.BookingLine b : all) t.add(List.of(b.id(), b.user(), gpus(b), Times.format(b.start(), zone), Times.format(b.end(), zone)));
        t.print(out, TextTable.width(inv.io()));
      }
      return ExitCode.OK;
    }
    if (cancel != null) {
      out.println(inv.api().cancelBooking(cancel));
      return ExitCode.OK;
    }
    if (count == null && named.isEmpty()) throw new UsageException("say how many GPUs (-g N) or which (--gpu 0,1), as in 'gq book -g 2 --at 14:00 --for 3h'");
    if (count != null && !named.isEmpty()) throw new UsageException("give -g N or --gpu LIST, not both");
    if (count != null && count < 1) throw new UsageException("-g must be 1 or more, not " + count);
    if (at == null || length == null) throw new UsageException("a booking needs --at WHEN and --for DURATION, as in 'gq book -g 2 --at 14:00 --for 3h'");
    Instant now = inv.api().now();
    Instant start = BeginTime.parse(at, now, zone);
    if (start == null) throw new UsageException("--at takes " + BeginTime.FORMS + ", not '" + at + "'");
    Duration d = DurationOption.parse("--for", length);
    if (d.isZero() || d.isNegative()) throw new UsageException("--for must be more than 0");
    GqApi.BookingLine b = inv.api().book(count == null ? named.size() : count, named, start, start.plus(d));
    out.println("Booked " + gpus(b) + " from " + Times.format(b.start(), zone) + " to " + Times.format(b.end(), zone)
        + " (" + Durations.format(d) + "), booking " + b.id() + "; cancel with gq book --cancel " + b.id());
    return ExitCode.OK;
  }

  /** "GPUs 0, 1" (or the UUID of a GPU this machine does not show). */
  static String gpus(GqApi.BookingLine b) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < b.uuids().size(); i++) names.add(b.indices().get(i) >= 0 ? Integer.toString(b.indices().get(i)) : b.uuids().get(i));
    return (names.size() == 1 ? "GPU " : "GPUs ") + String.join(", ", names);
  }
}
