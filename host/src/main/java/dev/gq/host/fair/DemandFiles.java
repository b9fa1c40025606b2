package dev.gq.host.fair;

import dev.gq.core.fair.Demand;
import dev.gq.core.fair.DemandRules;
import dev.gq.core.proc.ProcessTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demand files in the shared lease directory: this daemon publishes its user's
 * {@link Demand} under its own name ({@link DemandRules#fileName}) on every change and removes it
 * when nothing waits; every daemon reads all of them and counts those {@link DemandRules} accepts
 * (owner is the claimed uid, daemon still running), ignoring the rest with a reason.
 */
public final class DemandFiles {
  private final Path dir;
  private final ProcessTable processes;

  public DemandFiles(Path leaseDir, ProcessTable processes) {
    this.dir = leaseDir.toAbsolutePath();
    this.processes = processes;
  }

  /** What the directory holds: the demands that count, and name → why for each file that does not. */
  public record Reading(List<Demand> counted, Map<String, String> ignored) {}

  /**
   * Publishes {@code d} as the demand of the daemon with data directory {@code dataDir}, or removes
   * its file when nothing waits; the one line that says why it could not, or null.
   */
  public String publish(Demand d, String dataDir) {
    String name = DemandRules.fileName(d.uid(), dataDir);
    if (!d.waiting()) return PublishedFiles.removeOwn(dir, name, d.uid());
    return PublishedFiles.write(dir, name, d.text());
  }

  /** Removes this daemon's file (at its stop); the line that says why not, or null. */
  public String withdraw(int uid, String dataDir) {
    return PublishedFiles.removeOwn(dir, DemandRules.fileName(uid, dataDir), uid);
  }

  public Reading read() {
    Map<String, String> ignored = new LinkedHashMap<>();
    List<Demand> counted = new ArrayList<>();
    String boot = processes.bootId();
    for (PublishedFiles.Read f : PublishedFiles.readAll(dir, DemandRules::isDemandFile, Demand.MAX_BYTES, ignored)) {
      Demand.Parsed p = Demand.parse(f.text());
      if (p.demand().isEmpty()) {
        ignored.put(f.name(), p.problem());
        continue;
      }
      Demand d = p.demand().get();
      String why = DemandRules.misnamed(f.name(), f.ownerUid());
      if (why == null) why = DemandRules.ignored(d, f.ownerUid(), processes.info(d.pid()), boot);
      if (why != null) ignored.put(f.name(), why);
      else counted.add(d);
    }
    return new Reading(counted, ignored);
  }
}
