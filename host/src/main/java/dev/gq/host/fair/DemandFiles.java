package dev.gq.host.fair;

import dev.gq.core.fair.Demand;
import dev.gq.core.fair.DemandRules;
import dev.gq.core.proc.ProcessTable;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The demand files in the shared lease directory: this daemon publishes its user's
 * {@link Demand} on every change under a name of its own, its uid and a random part chosen on the
 * first publish and kept for its lifetime ({@link DemandRules#fileName}), and removes it when nothing
 * waits and at its stop. A name another user's file stands at, or one the write is refused at, is
 * given up for a new random one. Each publish first removes what this user's ended daemons left
 * (their demand files, and temporary files of a daemon killed mid-write), never another user's
 * file. Every daemon reads all of them and counts those {@link DemandRules} accepts (owner is the
 * claimed uid, daemon still running), ignoring the rest with a reason.
 */
public final class DemandFiles {
  /** How many random names one publish tries before it says why it could not. */
  static final int NAME_TRIES = 3;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Path dir;
  private final ProcessTable processes;
  private final InstantSource clock;
  private final Supplier<String> parts;
  /** This daemon's file name, once chosen; null before the first publish or after a name was given up. */
  private String name;

  public DemandFiles(Path leaseDir, ProcessTable processes, InstantSource clock) {
    this(leaseDir, processes, clock, () -> HexFormat.of().toHexDigits(RANDOM.nextLong()));
  }

  /** With the random parts of names taken from {@code parts} (tests). */
  DemandFiles(Path leaseDir, ProcessTable processes, InstantSource clock, Supplier<String> parts) {
    this.dir = leaseDir.toAbsolutePath();
    this.processes = processes;
    this.clock = clock;
    this.parts = parts;
  }

  /** What the directory holds: the demands that count, and name → why for each file that does not. */
  public record Reading(List<Demand> counted, Map<String, String> ignored) {}

  /** This daemon's file name, or null while it has none. */
  public synchronized String name() {
    return name;
  }

  /** Publishes {@code d} as this daemon's demand, or removes its file when nothing waits; the one line that says why it could not, or null. */
  public synchronized String publish(Demand d) {
    sweep(d.uid());
    if (!d.waiting()) return name == null ? null : PublishedFiles.removeOwn(dir, name, d.uid());
    String problem = null;
    for (int i = 0; i < NAME_TRIES; i++) {
      if (name == null) name = DemandRules.fileName(d.uid(), parts.get());
      int owner = PublishedFiles.ownerOf(dir, name);
      problem = owner >= 0 && owner != d.uid() // someone made it first: never replaced, even where this user could
          ? "uid " + owner + "'s file stands at " + dir.resolve(name)
          : PublishedFiles.write(dir, name, d.text());
      if (problem == null) return null;
      giveUp(d.uid());
    }
    return "cannot publish this user's demand: " + problem;
  }

  /** Removes this daemon's file (at its stop); the line that says why not, or null. */
  public synchronized String withdraw(int uid) {
    return name == null ? null : PublishedFiles.removeOwn(dir, name, uid);
  }

  /** Drops this daemon's name (its own file there removed), so that the next write chooses another. */
  private void giveUp(int uid) {
    PublishedFiles.removeOwn(dir, name, uid);
    name = null;
  }

  /** Removes {@code uid}'s files that no running daemon of this user will remove: see {@link DemandRules#ended} and {@link DemandRules#leftover}. */
  private void sweep(int uid) {
    for (PublishedFiles.Entry e : PublishedFiles.list(dir, n -> DemandRules.uidOf(n) == uid))
      if (DemandRules.leftover(e.name(), e.ownerUid(), uid, e.changed(), clock.instant())) PublishedFiles.removeOwn(dir, e.name(), uid);
    String boot = processes.bootId();
    for (PublishedFiles.Read f : PublishedFiles.readAll(dir, n -> DemandRules.uidOf(n) == uid && DemandRules.isDemandFile(n),
        Demand.MAX_BYTES, new LinkedHashMap<>())) {
      if (f.name().equals(name)) continue;
      Demand.Parsed p = Demand.parse(f.text());
      if (p.demand().isEmpty()) continue;
      Demand d = p.demand().get();
      String why = DemandRules.ignored(d, f.ownerUid(), processes.info(d.pid()), boot);
      if (DemandRules.ended(f.name(), f.ownerUid(), d, why, uid)) PublishedFiles.removeOwn(dir, f.name(), uid);
    }
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
