package dev.gq.core.proc;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Port to the host's process table (/proc under a configurable root). Reads only; never signals.
 * Every call is a fresh look: nothing is cached. Calls block and run off the actor threads.
 */
public interface ProcessTable {

  /** The stat fields of PID, or empty when /proc shows no such process (gone, or another namespace). */
  Optional<ProcInfo> info(long pid);

  /**
   * The value of one environment variable of PID, or empty when the process is gone, does not
   * carry it, or its environment cannot be read (another user).
   */
  Optional<String> environ(long pid, String name);

  /**
   * Whether PID's environment holds {@code name=value}: false when the process is gone, a zombie,
   * or its environment cannot be read (another user).
   */
  default boolean carries(long pid, String name, String value) {
    return environ(pid, name).map(value::equals).orElse(false);
  }

  /**
   * The values of environment variable {@code name} that the processes visible now carry, all but
   * {@code except}'s: one look at every process answers for every job whose tag is asked about.
   */
  default Set<String> valuesCarried(String name, long except) {
    Set<String> out = new HashSet<>();
    for (long pid : pids()) if (pid != except) environ(pid, name).ifPresent(out::add);
    return out;
  }

  /** Every process visible now. */
  List<ProcInfo> all();

  /** The PID of every process visible now (zombies too): a listing, cheaper than {@link #all}. */
  default Set<Long> pids() {
    return all().stream().map(ProcInfo::pid).collect(Collectors.toSet());
  }

  /** The current boot id (/proc/sys/kernel/random/boot_id). */
  String bootId();

  /**
   * The user owning PID: its real uid when its effective and saved uids are the same; -1 when the
   * process is gone, its status is unreadable, or the three differ (a set-uid program).
   */
  default long uid(long pid) {
    return -1;
  }

  /** PID's command line as its argv, split on NUL (never on spaces); empty when gone or a kernel thread. */
  default List<String> cmdline(long pid) {
    return List.of();
  }

  /** PID's working directory (the target of /proc/PID/cwd), or empty when gone or unreadable. */
  default Optional<String> cwd(long pid) {
    return Optional.empty();
  }

  /** The regular file PID's stdout (descriptor 1) writes to, or empty when it is a terminal, a pipe, or gone. */
  default Optional<String> stdoutFile(long pid) {
    return Optional.empty();
  }

  /** Where PID's open descriptors point (the targets of /proc/PID/fd/*); empty when gone or unreadable. */
  default List<String> openFiles(long pid) {
    return List.of();
  }

  /** When {@code p} started, by the wall clock: boot time plus its start ticks; empty when unreadable. */
  default Optional<Instant> startTime(ProcInfo p) {
    return Optional.empty();
  }
}
