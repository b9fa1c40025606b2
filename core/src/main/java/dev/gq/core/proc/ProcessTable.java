package dev.gq.core.proc;

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

  /** Every process visible now. */
  List<ProcInfo> all();

  /** The PID of every process visible now (zombies too): a listing, cheaper than {@link #all}. */
  default Set<Long> pids() {
    return all().stream().map(ProcInfo::pid).collect(Collectors.toSet());
  }

  /** The current boot id (/proc/sys/kernel/random/boot_id). */
  String bootId();
}
