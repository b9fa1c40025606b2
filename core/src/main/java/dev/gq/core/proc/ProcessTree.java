package dev.gq.core.proc;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * Ancestry by the parent-pid chain, the rule that tells an adopted job's processes: the adopted
 * process itself and every process whose chain of parents leads back to it. A link counts only when
 * the child started no earlier than its parent (a pid recycled for a younger process is no parent of
 * an older one). Pure: it reads processes through the functions and lists it is given.
 */
public final class ProcessTree {
  /** Chains longer than this are cut: the kernel's are far shorter; a loop in a torn read must end. */
  static final int MAX_DEPTH = 128;

  private ProcessTree() {}

  /** {@code p} and its ancestors, nearest first, up to (not including) pid 1 or the first one gone. */
  public static List<ProcessRef> lineage(ProcInfo p, LongFunction<Optional<ProcInfo>> lookup) {
    List<ProcessRef> out = new ArrayList<>();
    ProcInfo cur = p;
    while (cur != null && cur.pid() > 1 && out.size() < MAX_DEPTH) {
      out.add(ProcessRef.of(cur));
      ProcInfo child = cur;
      cur = cur.ppid() > 1 ? lookup.apply(cur.ppid()).filter(q -> q.startTicks() <= child.startTicks()).orElse(null) : null;
    }
    return out;
  }

  /** Whether {@code lineage} (a process and its ancestors) holds {@code root}: the process is it or descends from it. */
  public static boolean descends(List<ProcessRef> lineage, ProcessRef root) {
    return lineage.contains(root);
  }

  /**
   * What is left of a tree: the live processes of {@code all} (a look at /proc) that are one of
   * {@code known} (same pid and start ticks) or descend from one still alive. Zombies count as gone.
   * A descendant whose parent ended before it was seen is lost: the kernel gave it another parent.
   */
  public static Set<ProcessRef> alive(Collection<ProcessRef> known, List<ProcInfo> all) {
    Map<Long, ProcInfo> byPid = new HashMap<>();
    for (ProcInfo p : all) if (!p.zombie()) byPid.put(p.pid(), p);
    Set<ProcessRef> out = new HashSet<>();
    for (ProcessRef r : known) {
      ProcInfo p = byPid.get(r.pid());
      if (p != null && r.is(p)) out.add(r);
    }
    if (out.isEmpty()) return out;
    for (ProcInfo p : byPid.values()) {
      if (out.contains(ProcessRef.of(p))) continue;
      for (ProcessRef a : lineage(p, pid -> Optional.ofNullable(byPid.get(pid))))
        if (out.contains(a)) {
          out.add(ProcessRef.of(p));
          break;
        }
    }
    return out;
  }
}
