package dev.gq.api;

import dev.gq.core.gpu.GpuHistory;
import dev.gq.core.report.UsageFacts;
import dev.gq.core.report.UsageRows;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What the command tree needs from the daemon about the machine rather than the queue: the clock,
 * the GPUs and their recent figures and processes, usage over time, everyone's share of a shared
 * machine and its bookings, the notification targets, and the daemon itself (its state, start-up
 * settings, notes, stopping). Part of {@link GqApi}; the same rules: calls block, a refusal is an
 * {@link ApiException} with the one line to show.
 */
public interface MachineApi extends ApiReplies {
  /** Now, by the clock the job times are taken from (how long a running job has run is measured to it). */
  default Instant now() {
    return Instant.now();
  }

  GpuReport gpus() throws ApiException;

  /**
   * Reads what a usage report over {@code [from, to)} needs ({@code gq report}) from the history once
   * it has caught up: first the GPUs seen now and the first recorded use, handed to {@code reader},
   * which answers where the rows go; then each recorded GPU span that overlaps the period, in order of
   * start, and each job that may touch it, one at a time, to those {@link UsageRows}: nothing is held
   * on the way. {@code held}: the caller keeps the rows it is given (a plot), so they are charged to
   * the request first, and refused in one line when the daemon cannot hold them.
   */
  default void usage(Instant from, Instant to, boolean held, Function<UsageFacts, UsageRows> reader) throws ApiException {
    throw new ApiException("this daemon cannot report usage; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /**
   * Each GPU's newest figures and its utilisation over the last readings, by UUID, as the daemon
   * kept them from its own readings (nothing is read for this); empty from a daemon that keeps none.
   */
  default Map<String, GpuHistory.Trace> gpuTraces() {
    return Map.of();
  }

  /** Who runs each of {@code pids} and what (for the processes a GPU lists); a pid /proc does not show is absent. */
  default Map<Long, ProcessView> processes(Collection<Long> pids) {
    return Map.of();
  }

  DaemonInfo daemonInfo() throws ApiException;

  /** The shared machine: the policy and every user's GPUs held and jobs waiting ({@code gq who}); null from a daemon that does not say. */
  default WhoReport who() throws ApiException {
    return null;
  }

  /**
   * Books {@code count} GPUs, or those {@code gpus} names (indices or UUIDs; then {@code count} is
   * ignored), from {@code start} to {@code end} for this user, machine-wide; refused in one line.
   */
  default BookingLine book(int count, List<String> gpus, Instant start, Instant end) throws ApiException {
    throw new ApiException("this daemon cannot book GPUs; restart it with this gq (gq daemon stop, then gq daemon start)");
  }

  /** The bookings in force on this machine, by start. */
  default List<BookingLine> bookings() throws ApiException {
    throw new ApiException("this daemon cannot book GPUs; restart it with this gq (gq daemon stop, then gq daemon start)");
  }

  /**
   * Cancels booking {@code id}: this user's, or, by root or an admin of the machine policy, anyone's
   * for every user's gq; the line to show, or refused in one line.
   */
  default String cancelBooking(String id) throws ApiException {
    throw new ApiException("this daemon cannot book GPUs; restart it with this gq (gq daemon stop, then gq daemon start)");
  }

  /** Why the journal cannot be written now, since when, and what gq does about it; null while it takes writes. */
  default String journalProblem() {
    return null;
  }

  /**
   * How each part of the daemon is doing, one line each ("gpu watcher: ok, last reading 0.4 s ago"),
   * for {@code gq daemon status}; none from a daemon that does not say.
   */
  default List<String> partLines() throws ApiException {
    return List.of();
  }

  /** The notification targets and their deliveries ({@code gq notify}). */
  default NotifyApi notifications() throws ApiException {
    throw new ApiException("this daemon cannot send notifications; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /**
   * The daemon's own values of the settings it reads when it starts ({@link StartSettings#NAMES};
   * an unset one is absent); null when this daemon cannot tell.
   */
  default Map<String, String> startSettings() {
    return null;
  }

  /** Drains GPU {@code uuid} (index {@code index}) of new jobs, or gives it back ({@code reason} null); the line to show. */
  default String drainGpu(String uuid, int index, String reason) throws ApiException {
    throw new ApiException("this daemon cannot drain a GPU; restart it with 'gq daemon stop' (jobs keep running)");
  }

  /**
   * Drains GPU {@code uuid} (index {@code index}) for every user's gq, or gives it back ({@code reason}
   * null): root and the machine policy's admins only; the line to show, or refused in one line.
   */
  default String drainGpuForEveryone(String uuid, int index, String reason) throws ApiException {
    throw new ApiException("this daemon cannot drain a GPU for every user; restart it with this gq (gq daemon stop, then gq daemon start)");
  }

  /**
   * Whether a note (e.g. which variables a submit did not store) is said for the first time since
   * the daemon started: notes that every cell of a sweep would repeat are said once.
   */
  default boolean firstNotice(String note) {
    return true;
  }

  /** The daemon's web page and metrics ({@code gq web}); null from a daemon that cannot serve them. */
  default WebControl web() {
    return null;
  }

  /** Asks the daemon to stop after this request; running jobs are left running. */
  void shutdown() throws ApiException;
}
