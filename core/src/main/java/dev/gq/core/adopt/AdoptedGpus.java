package dev.gq.core.adopt;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.alloc.ProcessFacts;
import dev.gq.core.gpu.DeviceReading.GpuProcess;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.gpu.GpuState;
import dev.gq.core.gpu.GpuStatus;
import dev.gq.core.job.GpuSlot;
import dev.gq.core.proc.ProcessRef;
import dev.gq.core.proc.ProcessTree;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Which GPUs an adopted process takes: each GPU whose latest reading lists the process or one of
 * its descendants, provided nothing else has a claim on it. Refused, with the one line to show, when
 * the GPUs cannot be read (then gq cannot tell), or a GPU it uses is held by a job or another gq's
 * lease, is UNKNOWN, or also lists a process outside its tree (a GPU goes to one job whole, and only
 * a GPU no outside process uses). A process on no GPU takes none. Pure.
 */
final class AdoptedGpus {
  private AdoptedGpus() {}

  /** The GPUs, or a refusal. */
  record Result(List<GpuSlot> gpus, String refusal, List<Long> pids) {}

  static Result of(long pid, ProcessRef root, GpuObservation obs, List<GpuStatus> classified) {
    if (obs == null || classified == null) return refuse("there is no GPU reading yet; try again in a second");
    if (!obs.reading().ok())
      return refuse("the GPUs cannot be read (" + obs.reading().error() + "), so gq cannot tell which ones process "
          + pid + " uses; try again once 'gq gpu' reads them");
    Map<String, GpuStatus> byUuid = classified.stream().collect(Collectors.toMap(GpuStatus::uuid, g -> g, (a, b) -> a));
    List<GpuSlot> slots = new ArrayList<>();
    Set<Long> pids = new TreeSet<>();
    for (DeviceReading d : obs.reading().devices()) {
      if (d.error() != null)
        return refuse("GPU " + d.index() + " cannot be read (" + d.error() + "), so gq cannot tell whether process "
            + pid + " uses it; try again once 'gq gpu' reads it");
      List<GpuProcess> mine = d.processes().stream().filter(p -> inTree(obs.facts().get(p.pid()), root)).toList();
      if (mine.isEmpty()) continue;
      String why = claim(pid, d, mine, byUuid.get(d.uuid()));
      if (why != null) return refuse(why);
      slots.add(new GpuSlot(d.uuid(), d.index()));
      mine.forEach(p -> pids.add(p.pid()));
    }
    slots.sort(Comparator.comparingInt(GpuSlot::index));
    return new Result(slots, null, List.copyOf(pids));
  }

  /** What stops the tree of process {@code pid} from taking GPU {@code d} whole, or null. */
  private static String claim(long pid, DeviceReading d, List<GpuProcess> mine, GpuStatus s) {
    String gpu = "GPU " + d.index();
    if (s == null) return gpu + " has no state yet; try again in a second";
    if (s.ownerJobId() != null)
      return gpu + ", which process " + pid + " uses, is held by job " + s.ownerJobId()
          + "; gq never gives a GPU to two jobs (see 'gq gpu')";
    if (s.heldBy() != null)
      return gpu + ", which process " + pid + " uses, is held by " + s.heldBy() + "; gq never gives a GPU to two jobs";
    if (s.state() != GpuState.EXTERNAL && s.state() != GpuState.DRAINED)
      return gpu + ", which process " + pid + " uses, is " + s.state() + (s.detail() == null ? "" : ": " + s.detail())
          + "; try again once 'gq gpu' shows it plainly";
    List<String> others = d.processes().stream().filter(p -> !mine.contains(p)).map(p -> String.valueOf(p.pid())).toList();
    if (!others.isEmpty())
      return gpu + " is also used by process(es) " + String.join(", ", others) + ", which process " + pid
          + " did not start; gq adopts a run only onto GPUs that it alone uses";
    return null;
  }

  private static boolean inTree(ProcessFacts f, ProcessRef root) {
    return f != null && ProcessTree.descends(f.lineage(), root);
  }

  private static Result refuse(String why) {
    return new Result(List.of(), why, List.of());
  }
}
