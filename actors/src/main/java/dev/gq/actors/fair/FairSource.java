package dev.gq.actors.fair;

import dev.gq.core.alloc.GpuObservation;
import dev.gq.core.fair.Demand;
import dev.gq.core.fair.DemandRules;
import dev.gq.core.fair.FairView;
import dev.gq.core.fair.Policy;
import dev.gq.core.fair.PolicyReading;
import dev.gq.core.gpu.DeviceReading;
import dev.gq.core.lease.GpuLease;
import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.proc.ProcessTable;
import dev.gq.core.schedule.FairPlan;
import dev.gq.host.fair.AdminFiles;
import dev.gq.host.fair.BookingFiles;
import dev.gq.host.fair.DemandFiles;
import dev.gq.host.fair.PolicyFile;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This daemon's side of the shared machine. With each GPU reading (on the GPU watcher's blocking
 * thread) it re-reads the machine policy when the file changed (keeping the last good policy when a
 * file in force becomes unusable, and logging the problem once per change), reads every daemon's
 * demand file, and notes since when each GPU has been free; the Scheduler's plan reads the result
 * ({@link #view}). After each decision the Scheduler hands it this user's counts ({@link #own}); it
 * publishes them when they changed, on the blocking pool, at most five times a second (the newest
 * at the end of each fifth), and withdraws the file at stop. It never
 * decides anything and never touches a lease: the leases stay the only lock.
 */
public final class FairSource {
  private static final Logger LOG = LoggerFactory.getLogger(FairSource.class);
  /** The variable that names another policy file (tests; a machine keeps /etc/gq/policy.toml). */
  public static final String POLICY_FILE_VARIABLE = "GQ_POLICY_FILE";

  private final PolicyFile policyFile;
  private final DemandFiles demandFiles;
  private final SharedFiles sharedFiles;
  private final SharedRequests requests;
  private final LeaseHolder.Instance self;
  private final long pid;
  private final Executor blocking;
  private final Clock clock;
  private final AtomicReference<FairView> view = new AtomicReference<>(FairView.NONE);
  private final AtomicReference<GpuObservation> latest = new AtomicReference<>();
  /** The counts last handed to the file; null before the first, so that a file a crashed daemon of this data directory left is replaced or removed. */
  private final AtomicReference<FairPlan.Own> published = new AtomicReference<>();
  private final Map<String, Instant> freeSince = new HashMap<>();
  private PolicyReading reading = PolicyReading.ABSENT;
  private final OwnDemand own;
  /**
   * The counts go to the file at most every {@link #PUBLISH_SPACING_NANOS}, the newest at the end of
   * each spacing: other daemons read the file at their GPU reading, once a second.
   */
  private final Spaced<FairPlan.Own> publishing;
  static final long PUBLISH_SPACING_NANOS = 200_000_000L;
  /** Other users' demand files, re-read the moment one is written (not only at each GPU reading). */
  private final DemandWatch watch;
  /** What the booking files' reading ignored last, kept when only the demand files are read again. */
  private Map<String, String> bookingsIgnored = Map.of();
  /** Counts handed to {@link #own} and counts written, numbered: a submit waits until its own are written. */
  private long handed;
  private long written;
  private boolean stopped;

  public FairSource(Path policy, Path leaseDir, LeaseHolder.Instance self, long pid, ProcessTable procs, Executor blocking,
      Clock clock) {
    this.policyFile = new PolicyFile(policy, 0);
    this.demandFiles = new DemandFiles(leaseDir, procs, clock);
    BookingFiles bookingFiles = new BookingFiles(leaseDir);
    AdminFiles adminFiles = new AdminFiles(leaseDir);
    this.sharedFiles = new SharedFiles(bookingFiles, adminFiles, self.uid());
    this.requests = new SharedRequests(bookingFiles, adminFiles, self, clock, latest::get, this::resolved);
    this.self = self;
    this.pid = pid;
    this.blocking = blocking;
    this.clock = clock;
    this.own = new OwnDemand(demandFiles, self, pid, procs, clock);
    this.publishing = new Spaced<>(PUBLISH_SPACING_NANOS, blocking, this::publish);
    this.watch = new DemandWatch(leaseDir.toAbsolutePath(), DemandRules::isDemandFile, this::demandsChanged);
  }

  /** The policy file named by {@value #POLICY_FILE_VARIABLE} in {@code env}, else /etc/gq/policy.toml. */
  public static Path policyFile(Map<String, String> env) {
    String p = env.get(POLICY_FILE_VARIABLE);
    return p == null || p.isBlank() ? PolicyFile.DEFAULT : Path.of(p);
  }

  /** What the plan reads: the policy, everyone else's demand, since when each GPU is free. */
  public FairView view() {
    return view.get();
  }

  /** The latest reading this daemon took, with its leases (null before the first). */
  public GpuObservation latest() {
    return latest.get();
  }

  /** The counts this daemon last published for its user. */
  public FairPlan.Own published() {
    FairPlan.Own o = published.get();
    return o == null ? FairPlan.Own.NONE : o;
  }

  public LeaseHolder.Instance self() {
    return self;
  }

  /** Reads the policy (when changed) and the demand files after reading {@code o}. Blocks; one thread at a time. */
  public synchronized GpuObservation observed(GpuObservation o) {
    try {
      watch.start();
      if (policyFile.changed()) policyRead(policyFile.read());
      DemandFiles.Reading demands = demandFiles.read();
      List<Demand> others = others(demands);
      Instant now = clock.instant();
      Map<String, Instant> seen = new HashMap<>();
      if (o.reading().ok())
        for (DeviceReading d : o.reading().devices()) {
          boolean free = d.processes().isEmpty() && o.lease(d.uuid()).state() == GpuLease.State.FREE;
          if (free) seen.put(d.uuid(), freeSince.getOrDefault(d.uuid(), now));
        }
      freeSince.clear();
      freeSince.putAll(seen);
      latest.set(o);
      Policy resolved = resolved(o);
      SharedFiles.Read shared = sharedFiles.read(resolved, now);
      bookingsIgnored = shared.ignored();
      Map<String, String> ignored = new LinkedHashMap<>(demands.ignored());
      ignored.putAll(shared.ignored());
      view.set(new FairView(new PolicyReading(resolved, reading.problem()), others, ignored, seen, shared.bookings(),
          ZoneId.systemDefault(), shared.drains()));
    } catch (RuntimeException e) {
      LOG.warn("cannot read the shared machine's files: {}", e.toString());
    }
    return o;
  }

  private List<Demand> others(DemandFiles.Reading demands) {
    List<Demand> others = new ArrayList<>();
    for (Demand d : demands.counted()) if (!(d.pid() == pid && d.uid() == self.uid())) others.add(d);
    return others;
  }

  /** A demand file was written or removed: the view gets everyone's demand now, the rest as last read. */
  private synchronized void demandsChanged() {
    try {
      DemandFiles.Reading demands = demandFiles.read();
      Map<String, String> ignored = new LinkedHashMap<>(demands.ignored());
      ignored.putAll(bookingsIgnored);
      view.updateAndGet(v -> new FairView(v.policy(), others(demands), ignored, v.freeSince(), v.bookings(), v.zone(), v.machineDrains()));
    } catch (RuntimeException e) {
      LOG.warn("cannot read the other users' demand: {}", e.toString());
    }
  }

  /** The policy in force with its interactive GPUs named by index resolved to {@code o}'s UUIDs. */
  private Policy resolved(GpuObservation o) {
    if (reading.policy() == Policy.NONE || o == null || !o.reading().ok()) return reading.policy();
    Map<Integer, String> byIndex = new HashMap<>();
    o.reading().devices().forEach(d -> byIndex.put(d.index(), d.uuid()));
    return reading.policy().resolved(byIndex);
  }

  /** Bookings, cancellations and an admin's drains for every user's gq. */
  public SharedRequests requests() {
    return requests;
  }

  private void policyRead(PolicyReading r) {
    PolicyReading before = reading;
    reading = before.then(r);
    if (reading.problem() != null) LOG.warn("{}", reading.problem());
    else if (reading.policy() != Policy.NONE) LOG.info("machine policy in force: {}", PolicyLines.describe(reading.policy()));
    else if (before.policy() != Policy.NONE || before.problem() != null) LOG.info("no machine policy: first come, first served");
  }

  /** This user's counts after a decision: published when they changed (removed when nothing waits). */
  public void own(FairPlan.Own counts) {
    if (Objects.equals(published.getAndSet(counts), counts)) return;
    synchronized (this) {
      handed++;
    }
    publishing.hand(counts);
  }

  /**
   * Waits, at most {@code max}, until the counts handed so far are in the demand file, when a policy
   * is in force (without one nobody reads them): a submit returns once other users' gq can see that
   * this user waits.
   */
  public void awaitPublished(Duration max) {
    if (!view.get().active()) return;
    long deadline = System.nanoTime() + max.toNanos();
    synchronized (this) {
      long target = handed;
      try {
        for (long left; written < target && !stopped && (left = deadline - System.nanoTime()) > 0; )
          wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void publish(FairPlan.Own c) {
    long upTo;
    synchronized (this) {
      upTo = handed; // the newest counts, whichever of those handed they are
    }
    own.publish(c);
    synchronized (this) {
      written = Math.max(written, upTo);
      notifyAll();
    }
  }

  /** Removes this daemon's demand file (at stop). */
  public void withdraw() {
    synchronized (this) {
      stopped = true;
      notifyAll();
    }
    watch.close();
    own.withdraw();
  }

  /** Why this user's demand cannot be published, so that other users' gq do not see it wait, in one line; null when it can. */
  public String demandProblem() {
    return own.problem();
  }

  /** The policy in force, or why none is, in one line (gq daemon status, gq who). */
  public String policyLine() {
    return PolicyLines.line(view.get().policy());
  }
}
