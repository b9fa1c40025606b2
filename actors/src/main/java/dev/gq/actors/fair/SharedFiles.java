package dev.gq.actors.fair;

import dev.gq.core.fair.AdminOrder;
import dev.gq.core.fair.Booking;
import dev.gq.core.fair.BookingRules;
import dev.gq.core.fair.Policy;
import dev.gq.host.fair.AdminFiles;
import dev.gq.host.fair.BookingFiles;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The booking files and the admins' order files, read with each GPU reading: the bookings in force
 * (none an admin cancelled, each within the policy), the GPUs an admin drained for every user's gq,
 * and each file not counted with why. It also removes what only this user can: its ended or
 * cancelled bookings (the sticky directory lets nobody else) and its cancellation orders whose
 * booking is gone. Runs on the watcher's blocking thread.
 */
final class SharedFiles {
  private final BookingFiles bookingFiles;
  private final AdminFiles adminFiles;
  private final int uid;

  SharedFiles(BookingFiles bookingFiles, AdminFiles adminFiles, int uid) {
    this.bookingFiles = bookingFiles;
    this.adminFiles = adminFiles;
    this.uid = uid;
  }

  /** The bookings in force, the GPUs drained for every user's gq (UUID → by whom and why), and the files not counted. */
  record Read(List<Booking> bookings, Map<String, String> drains, Map<String, String> ignored) {}

  Read read(Policy policy, Instant now) {
    BookingFiles.Reading booked = bookingFiles.read();
    AdminFiles.Reading orders = adminFiles.read();
    AdminOrder.Standing standing = AdminOrder.standing(orders.orders(), policy);
    BookingRules.Sorting sorting = booked.sort(standing.cancelled(), policy, now);
    Map<String, String> ignored = new LinkedHashMap<>(booked.ignored());
    ignored.putAll(sorting.notCounted());
    ignored.putAll(orders.ignored());
    ignored.putAll(standing.notCounted());
    Map<String, String> drains = new LinkedHashMap<>();
    standing.drains().forEach((gpu, order) -> drains.put(gpu, order.drainLine()));
    tidy(booked.bookings(), standing, now);
    return new Read(sorting.inForce(), drains, ignored);
  }

  private void tidy(List<Booking> read, AdminOrder.Standing standing, Instant now) {
    for (Booking b : read)
      if (b.uid() == uid && (!b.end().isAfter(now) || standing.cancelled().containsKey(b.id()))) bookingFiles.cancel(b.id(), uid);
    Set<String> ids = new HashSet<>();
    read.forEach(b -> ids.add(b.id()));
    if (standing.cancelled().isEmpty()) return;
    adminFiles.remove(uid, order -> order.owner() == uid && order.cancel() != null && !ids.contains(order.cancel()));
  }
}
