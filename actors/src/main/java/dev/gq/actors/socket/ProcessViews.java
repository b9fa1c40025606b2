package dev.gq.actors.socket;

import dev.gq.api.ApiReplies.ProcessView;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.proc.ProcInfo;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.proc.ProcessTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who runs the processes a GPU lists, for {@code gq top}: user name (from /etc/passwd, read again
 * when it changes; else "uid N"), command line and start, and the facts the ownership rule reads
 * (session, group, GQ_JOB_TAG, and the parents of a process without a tag, as the GPU watcher reads
 * them), a few /proc reads per process.
 */
final class ProcessViews {
  private static final Path PASSWD = Path.of("/etc/passwd");
  private static Map<Long, String> names = Map.of();
  private static long namesStamp = Long.MIN_VALUE;

  private ProcessViews() {}

  static Map<Long, ProcessView> of(ProcessTable table, Collection<Long> pids) {
    Map<Long, ProcessView> out = new HashMap<>();
    for (long pid : pids) {
      Optional<ProcInfo> info = table.info(pid);
      if (info.isEmpty()) continue;
      long uid = table.uid(pid);
      List<String> argv = table.cmdline(pid);
      String command = argv.isEmpty() ? "[" + info.get().comm() + "]" : String.join(" ", argv);
      String tag = table.environ(pid, "GQ_JOB_TAG").orElse(null);
      List<ProcessRef> lineage = tag != null ? List.of()
          : ProcessTree.lineage(info.get(), table::info);
      ProcessFacts facts = info.get().zombie() ? null : new ProcessFacts(pid, info.get().sid(), info.get().pgid(), tag, lineage);
      out.put(pid, new ProcessView(pid, uid < 0 ? null : name(uid), command, table.startTime(info.get()).orElse(null), facts));
    }
    return out;
  }

  private static synchronized String name(long uid) {
    try {
      long stamp = Files.getLastModifiedTime(PASSWD).toMillis();
      if (stamp != namesStamp) {
        Map<Long, String> m = new HashMap<>();
        for (String line : Files.readAllLines(PASSWD)) {
          String[] f = line.split(":", -1);
          if (f.length > 2 && f[2].matches("\\d{1,10}")) m.putIfAbsent(Long.parseLong(f[2]), f[0]);
        }
        names = m;
        namesStamp = stamp;
      }
    } catch (IOException | RuntimeException e) {
      // no passwd file: numbers then
    }
    return names.getOrDefault(uid, "uid " + uid);
  }
}
