package dev.gq.actors.fair;

import dev.gq.api.ApiException;
import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.fair.AdminOrder;
import dev.gq.core.fair.Booking;
import dev.gq.core.fair.BookingRules;
import dev.gq.core.fair.Policy;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.job.PrintableText;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.host.fair.AdminFiles;
import dev.gq.host.fair.BookingFiles;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What this daemon's user asks of the shared machine beyond its own queue: booking GPUs, listing and
 * cancelling bookings, and, for root and the policy's admins, draining a GPU for every user's gq and
 * cancelling anyone's booking through an order file ({@link AdminOrder}) that every gq honours. An
 * order is written, read back as every gq reads it, and withdrawn with the one line why when it does
 * not count: no daemon decides who is an admin but by the file's owner. Nothing here signals or
 * stops a process.
 */
public final class SharedRequests {
  private final BookingFiles bookingFiles;
  private final AdminFiles adminFiles;
  private final LeaseHolder.Instance self;
  private final Clock clock;
  private final Supplier<GpuObservation> latest;
  private final Function<GpuObservation, Policy> policy;

  SharedRequests(BookingFiles bookingFiles, AdminFiles adminFiles, LeaseHolder.Instance self, Clock clock,
      Supplier<GpuObservation> latest, Function<GpuObservation, Policy> policy) {
    this.bookingFiles = bookingFiles;
    this.adminFiles = adminFiles;
    this.self = self;
    this.clock = clock;
    this.latest = latest;
    this.policy = policy;
  }

  /** A booking of the GPUs shown by index or UUID in {@code named}, else of {@code count} chosen ones; refused in one line. */
  public Booking book(int count, List<String> named, Instant start, Instant end) throws ApiException {
    GpuObservation o = latest.get();
    if (o == null || !o.reading().ok()) throw new ApiException("no GPU reading yet; try again in a moment");
    Instant now = clock.instant();
    Policy p = policy.apply(o);
    List<String> gpus = new ArrayList<>();
    for (String n : named) {
      String uuid = o.reading().devices().stream().filter(d -> d.uuid().equals(n) || Integer.toString(d.index()).equals(n))
          .map(DeviceReading::uuid).findFirst().orElse(null);
      if (uuid == null) throw new ApiException("this machine has no GPU " + n + "; see gq gpu");
      if (!gpus.contains(uuid)) gpus.add(uuid);
    }
    if (named.isEmpty()) {
      List<String> shared = o.reading().devices().stream().filter(d -> !p.interactive(d.index(), d.uuid())).map(DeviceReading::uuid).toList();
      gpus = BookingRules.choose(count, shared, inForce(p, now), start, end);
      if (gpus.size() < count)
        throw new ApiException("only " + gpus.size() + " of the " + shared.size() + " shared GPUs are not booked in that window; "
            + "book fewer or another time (gq book --list)");
    }
    Booking b = new Booking(BookingFiles.newId(), self.user(), self.uid(), gpus, start, end, now);
    String why = bookingFiles.book(b, p, now, ZoneId.systemDefault());
    if (why != null) throw new ApiException(why);
    return b;
  }

  /** The bookings in force now (none an admin cancelled), by start. */
  public List<Booking> bookings() {
    List<Booking> out = new ArrayList<>(inForce(policy.apply(latest.get()), clock.instant()));
    out.sort(Comparator.comparing(Booking::start).thenComparing(Booking::id));
    return out;
  }

  private List<Booking> inForce(Policy p, Instant now) {
    return bookingFiles.read().sort(AdminOrder.standing(adminFiles.read().orders(), p).cancelled(), p, now).inForce();
  }

  /** Cancels booking {@code id}: this user's by removing it; another's, by root or an admin, for every user's gq. */
  public String cancel(String id) throws ApiException {
    if (!id.matches("[0-9a-z]{4,16}")) throw new ApiException("'" + PrintableText.escape(id) + "' is no booking id; list them with gq book --list");
    Booking b = bookingFiles.find(id).orElse(null);
    if (b != null && b.uid() != self.uid() && self.uid() != 0) {
      String refused = order(AdminOrder.cancelText(id), "cancel " + b.user() + "'s booking " + id);
      if (refused == null) return "Cancelled booking " + id + " of " + b.user() + "'s for every user's gq (as an admin).";
      throw new ApiException("booking " + id + " is " + b.user() + "'s; only " + b.user() + ", root or an admin (admins in"
          + " /etc/gq/policy.toml) can cancel it");
    }
    String why = bookingFiles.cancel(id, self.uid());
    if (why != null) throw new ApiException(why);
    return "Cancelled booking " + id + ".";
  }

  /** Drains GPU {@code uuid} (index {@code index}) for every user's gq, or resumes it ({@code reason} null); the line to show. */
  public String drainForEveryone(String uuid, int index, String reason) throws ApiException {
    if (reason != null) {
      String refused = order(AdminOrder.drainText(uuid, reason), "drain GPU " + index + " for every user");
      if (refused != null) throw new ApiException(refused + "; 'gq gpu drain " + index + "' keeps it from your own gq only");
      return "GPU " + index + " drained for every user's gq: no new job of anyone's gq starts on it (a job on it keeps running);"
          + " 'gq gpu resume " + index + " --all-users' gives it back";
    }
    int removed = adminFiles.remove(self.uid(), o -> uuid.equals(o.drain()));
    AdminOrder still = AdminOrder.standing(adminFiles.read().orders(), policy.apply(latest.get())).drains().get(uuid);
    if (still != null)
      return "GPU " + index + " is still " + still.drainLine() + " (" + still.file() + "); only its owner or root can resume it";
    return removed == 0 ? "GPU " + index + " was not drained for every user's gq" : "GPU " + index + " resumed for every user's gq";
  }

  /** Writes an order and reads it back as every gq would; null when it counts, else withdrawn and the line why. */
  private String order(String text, String what) throws ApiException {
    AdminFiles.Written w = adminFiles.write(self.uid(), text);
    if (w.problem() != null) throw new ApiException(w.problem());
    AdminOrder.Standing s = AdminOrder.standing(adminFiles.read().orders(), policy.apply(latest.get()));
    String why = s.notCounted().get(w.name());
    if (why == null) return null;
    adminFiles.remove(self.uid(), o -> o.file().equals(w.name()));
    return "only root and the policy's admins can " + what + ": this gq's order " + why;
  }
}
