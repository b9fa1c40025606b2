package dev.gq.host.signal;

import com.sun.jna.LastErrorException;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessIdentity;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTable;
import dev.gq.host.libc.Libc;
import java.util.Collection;
import java.util.Optional;

/**
 * Signals an adopted job's processes one by one: the adopted process and the descendants the
 * runner has seen of it, never {@code kill(-pgid)}: an adopted process's group and session may be
 * the user's login shell's. Each process is proved just before its signal: the boot id is the
 * recorded one, and, through a pidfd opened first, the process holding the pid has the recorded
 * start ticks (the descriptor then names that very process, whatever happens to the pid); where the
 * kernel has no pidfd, the ticks are read right before {@code kill(pid)}. Never pid 1 or the daemon.
 */
final class TreeSignals {
  private final ProcessTable table;
  private final long self;

  TreeSignals(ProcessTable table, long self) {
    this.table = table;
    this.self = self;
  }

  int signal(ProcessIdentity root, Collection<ProcessRef> tree, int signal) {
    if (!root.adopted() || !table.bootId().equals(root.bootId())) return 0;
    int sent = 0;
    for (ProcessRef r : tree) if (r.pid() > 1 && r.pid() != self && one(r, signal)) sent++;
    return sent;
  }

  private boolean one(ProcessRef r, int signal) {
    int fd = open(r.pid());
    try {
      Optional<ProcInfo> now = table.info(r.pid());
      if (now.isEmpty() || now.get().zombie() || !r.is(now.get())) return false;
      if (fd >= 0) Libc.pidfdSendSignal(fd, signal);
      else Libc.kill(r.pid(), signal);
      return true;
    } catch (LastErrorException e) {
      return false; // ended since the check
    } finally {
      if (fd >= 0) close(fd);
    }
  }

  private static int open(long pid) {
    try {
      return Libc.pidfdOpen(pid);
    } catch (LastErrorException e) {
      return -1; // no pidfd here, or the process is gone: the /proc check decides
    }
  }

  private static void close(int fd) {
    try {
      Libc.close(fd);
    } catch (LastErrorException e) {
      // released either way
    }
  }
}
