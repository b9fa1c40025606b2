package dev.gq.host.signal;

import com.sun.jna.LastErrorException;
import dev.gq.core.launch.Signals;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTable;
import dev.gq.host.libc.Libc;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real {@link Signals}: signals a job's process group, and every other process group inside
 * the job's session (a command such as {@code timeout} moves into a group of its own), only after
 * proving each is the job's. Before every signal: the boot id must be the recorded one; a process
 * holding the leader's PID must have the recorded start ticks (else the PID was recycled and
 * nothing is sent); each group is signalled only while a witness, one of its live members, is
 * re-read just before {@code kill(-pgid)}, the leader through a pidfd where the kernel has them.
 * A job whose leader is gone is recognised by its members' group and session numbers, which the
 * kernel does not hand out again while any member lives. What remains is the few microseconds
 * between the last check and {@code kill(-pgid)}: in that time the whole group would have to end
 * and its number go to a new process that makes itself a group leader, which needs the kernel to
 * cycle through the PID space. A process that left the job's session ({@code setsid}) is reached
 * by the job's GQ_JOB_TAG, proved on that process itself. A preemption may signal the job's main
 * process alone (the shim's child started within 2 s of it: the shim forks at once, and a process
 * of the job re-parented to the shim after its parent ended started later; proved by parent,
 * session, tag and start ticks through a pidfd). The JobRunner calls it on cancel and preemption.
 */
public final class GroupSignals implements Signals {

  private static final String TAG = "GQ_JOB_TAG";
  /** How soon after the shim its command starts, at most, in clock ticks (2 s at the usual 100 a second). */
  static final long MAIN_WITHIN_TICKS = 200;
  // The daemon is never a job's process, though one started from inside a job carries its tag.
  private static final long SELF = ProcessHandle.current().pid();

  private final ProcessTable table;
  private volatile boolean pidfdUsable = true;

  /** {@code table}: the /proc view used for every check. */
  public GroupSignals(ProcessTable table) {
    this.table = table;
  }

  @Override
  public Outcome signalGroup(ProcessIdentity id, int signal) {
    // kill(-0) and kill(-1) would reach the caller's own group or every process: never.
    if (id.pid() <= 1 || id.pgid() <= 1 || id.sid() <= 1) return Outcome.NOT_OURS;
    if (!table.bootId().equals(id.bootId())) return Outcome.NOT_OURS;
    int pidfd = openPidfd(id.pid());
    try {
      // Read after opening: when the ticks match, the pidfd refers to the job's leader itself.
      Optional<ProcInfo> leader = table.info(id.pid());
      if (leader.isPresent() && leader.get().startTicks() != id.startTicks()) return Outcome.NOT_OURS;
      int leaderFd = leader.isPresent() ? pidfd : -1;
      Optional<List<ProcInfo>> witnesses = witnesses(id);
      if (witnesses.isEmpty()) return Outcome.NOT_OURS;
      int sent = 0;
      for (ProcInfo witness : witnesses.get()) {
        // Check and signal back to back: the check is only as good as the time until kill().
        if (stillThere(witness, id, leaderFd) && killGroup(witness.pgid(), signal)) sent++;
      }
      return sent > 0 ? Outcome.SENT : Outcome.GONE;
    } finally {
      closeQuietly(pidfd);
    }
  }

  /**
   * One live member per process group of the job (its group first, each group's leader where it
   * lives), or empty when the leader's PID now belongs to another process. Members started no
   * earlier than the leader: nothing older can have joined its session or group.
   */
  private Optional<List<ProcInfo>> witnesses(ProcessIdentity id) {
    Map<Long, ProcInfo> byGroup = new LinkedHashMap<>();
    byGroup.put(id.pgid(), null);
    for (ProcInfo p : table.all()) {
      if (p.pid() == id.pid() && p.startTicks() != id.startTicks()) return Optional.empty();
      if (p.zombie() || p.pgid() <= 1 || p.startTicks() < id.startTicks()) continue;
      if (p.pgid() != id.pgid() && p.sid() != id.sid()) continue;
      ProcInfo known = byGroup.get(p.pgid());
      if (known == null || p.pid() == p.pgid()) byGroup.put(p.pgid(), p);
    }
    List<ProcInfo> witnesses = new ArrayList<>();
    for (ProcInfo p : byGroup.values()) if (p != null) witnesses.add(p);
    return Optional.of(witnesses);
  }

  /**
   * Each process outside the job's session and group carrying its tag gets the signal, proved on
   * the process itself: with a pidfd, opened first and the tag read after it (the descriptor then
   * names a process that carries the tag, whatever happens to the PID); without, the tag is read
   * between two reads of the start ticks, right before {@code kill(pid)}.
   */
  @Override
  public int signalTagged(ProcessIdentity id, String tag, int signal) {
    if (tag == null || tag.isEmpty() || !table.bootId().equals(id.bootId())) return 0;
    int sent = 0;
    for (long pid : table.pids()) {
      if (pid <= 1 || pid == SELF || !table.carries(pid, TAG, tag)) continue;
      Optional<ProcInfo> p = table.info(pid);
      // the session and group have had it from signalGroup
      if (p.isEmpty() || p.get().zombie() || p.get().sid() == id.sid() || p.get().pgid() == id.pgid()) continue;
      if (signalTaggedOne(p.get(), tag, signal)) sent++;
    }
    return sent;
  }

  @Override
  public int signalTree(ProcessIdentity root, Collection<ProcessRef> tree, int signal) {
    return new TreeSignals(table, SELF).signal(root, tree, signal);
  }

  private boolean signalTaggedOne(ProcInfo p, String tag, int signal) {
    int fd = openPidfd(p.pid());
    try {
      if (fd >= 0) {
        if (!table.carries(p.pid(), TAG, tag)) return false;
        Libc.pidfdSendSignal(fd, signal);
        return true;
      }
      Optional<ProcInfo> now = table.info(p.pid());
      if (now.isEmpty() || now.get().startTicks() != p.startTicks()) return false;
      Libc.kill(p.pid(), signal);
      return true;
    } catch (LastErrorException e) {
      return false; // ended since the check
    } finally {
      closeQuietly(fd);
    }
  }

  @Override
  public Outcome signalMain(ProcessIdentity id, String tag, int signal) {
    if (id.pid() <= 1 || tag == null || tag.isEmpty() || !table.bootId().equals(id.bootId())) return Outcome.NOT_OURS;
    Optional<ProcInfo> shim = table.info(id.pid());
    if (shim.isEmpty() || shim.get().zombie()) return Outcome.GONE;
    if (shim.get().startTicks() != id.startTicks()) return Outcome.NOT_OURS;
    ProcInfo main = null;
    for (ProcInfo p : table.all()) {
      if (p.ppid() != id.pid() || p.zombie() || p.sid() != id.sid() || p.startTicks() < id.startTicks()) continue;
      // the shim forks its command at once; a later child is a process of the job whose parent ended
      if (p.startTicks() - id.startTicks() > MAIN_WITHIN_TICKS) continue;
      if (main == null || p.startTicks() < main.startTicks() || (p.startTicks() == main.startTicks() && p.pid() < main.pid()))
        main = p;
    }
    if (main == null) return Outcome.GONE;
    int fd = openPidfd(main.pid());
    try {
      // Read after opening: the descriptor then names the process these facts are about.
      Optional<ProcInfo> now = table.info(main.pid());
      if (now.isEmpty() || now.get().zombie()) return Outcome.GONE;
      ProcInfo p = now.get();
      if (p.startTicks() != main.startTicks() || p.ppid() != id.pid() || p.sid() != id.sid()) return Outcome.GONE;
      if (!table.carries(p.pid(), TAG, tag)) return Outcome.NOT_OURS;
      Optional<ProcInfo> parent = table.info(id.pid());
      if (parent.isEmpty() || parent.get().startTicks() != id.startTicks()) return Outcome.GONE;
      if (fd >= 0) Libc.pidfdSendSignal(fd, signal);
      else Libc.kill(p.pid(), signal);
      return Outcome.SENT;
    } catch (LastErrorException e) {
      return Outcome.GONE; // ended since the check
    } finally {
      closeQuietly(fd);
    }
  }

  /** Whether {@code witness} is, right now, still the same process in the same group. */
  private boolean stillThere(ProcInfo witness, ProcessIdentity id, int leaderFd) {
    if (witness.pid() == id.pid() && leaderFd >= 0) return probe(leaderFd);
    Optional<ProcInfo> now = table.info(witness.pid());
    return now.isPresent()
        && now.get().startTicks() == witness.startTicks()
        && now.get().pgid() == witness.pgid();
  }

  private static boolean probe(int pidfd) {
    try {
      Libc.pidfdSendSignal(pidfd, 0);
      return true;
    } catch (LastErrorException e) {
      return false;
    }
  }

  private static boolean killGroup(long pgid, int signal) {
    try {
      Libc.kill(-pgid, signal);
      return true;
    } catch (LastErrorException e) {
      return false; // ESRCH: the group ended since the check; EPERM: not ours to signal
    }
  }

  private int openPidfd(long pid) {
    if (!pidfdUsable) return -1;
    try {
      return Libc.pidfdOpen(pid);
    } catch (LastErrorException e) {
      // No pidfd in this kernel, or a seccomp filter forbids it: check through /proc alone.
      if (e.getErrorCode() == Libc.ENOSYS || e.getErrorCode() == Libc.EPERM) pidfdUsable = false;
      return -1;
    }
  }

  private static void closeQuietly(int fd) {
    if (fd < 0) return;
    try {
      Libc.close(fd);
    } catch (LastErrorException e) {
      // nothing to do: the descriptor is released either way
    }
  }
}
