package dev.gq.actors.socket;

import dev.gq.actors.fair.FairSource;
import dev.gq.api.ApiException;
import dev.gq.api.ApiReplies.BookingLine;
import dev.gq.api.ApiReplies.WhoReport;
import dev.gq.core.fair.Booking;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.schedule.FairWho;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shared machine as {@code gq who} and {@code gq book} see it: the policy, everyone's demand,
 * and the bookings, each with its GPUs' indices in the latest reading. Answers from the daemon's
 * {@link FairSource}.
 */
final class FairRequests {
  private final FairSource fair;

  FairRequests(FairSource fair) {
    this.fair = fair;
  }

  /** Waits briefly until this user's newest counts are in its demand file (a submit's last step). */
  void published() {
    fair.awaitPublished(Duration.ofSeconds(1));
  }

  /** Who shares the machine now. */
  WhoReport who() {
    FairSource f = fair;
    var view = f.view();
    return new WhoReport(f.policyLine(), view.active() && view.policy().problem() == null,
        FairWho.rows(f.latest(), view.demands(), f.published(), f.self()), view.ignored(),
        view.bookings().stream().map(b -> line(b, f)).toList(), f.demandProblem(), drains(view.machineDrains(), f));
  }

  BookingLine book(int count, List<String> gpus, Instant start, Instant end) throws ApiException {
    return line(fair.requests().book(count, gpus, start, end), fair);
  }

  List<BookingLine> bookings() throws ApiException {
    return fair.requests().bookings().stream().map(b -> line(b, fair)).toList();
  }

  String cancel(String id) throws ApiException {
    return fair.requests().cancel(id);
  }

  String drainForEveryone(String uuid, int index, String reason) throws ApiException {
    return fair.requests().drainForEveryone(uuid, index, reason);
  }

  /** "GPU 0" (or the UUID of a GPU this machine does not show) → by whom and why, for each GPU drained for every user. */
  private static Map<String, String> drains(Map<String, String> byUuid, FairSource f) {
    Map<String, String> out = new LinkedHashMap<>();
    byUuid.forEach((uuid, line) -> {
      int index = index(uuid, f);
      out.put(index >= 0 ? "GPU " + index : uuid, line);
    });
    return out;
  }

  private static int index(String uuid, FairSource f) {
    var o = f.latest();
    return o == null ? -1 : o.reading().devices().stream().filter(d -> d.uuid().equals(uuid)).mapToInt(DeviceReading::index)
        .findFirst().orElse(-1);
  }

  private static BookingLine line(Booking b, FairSource f) {
    List<Integer> indices = b.gpus().stream().map(u -> index(u, f)).toList();
    return new BookingLine(b.id(), b.user(), indices, b.gpus(), b.start(), b.end());
  }
}
