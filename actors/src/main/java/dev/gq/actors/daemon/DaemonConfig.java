package dev.gq.actors.daemon;

import dev.gq.core.alloc.PlanRules;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.ledger.FailFast;
import dev.gq.core.schedule.DecisionContext;
import dev.gq.host.lease.LeaseFiles;
import dev.gq.protocol.GqPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * The daemon's settings, read once from its environment and validated in one place: a bad value
 * stops start-up with a line naming the variable and its bounds. GQ_FAIL_FAST_COUNT and
 * GQ_FAIL_FAST_SECONDS set when a group is held after quick failures; GQ_MAX_CLIENTS how many clients
 * are served at once and GQ_MAX_STREAMS how many streams (logs -f, wait, events -f) besides; GQ_GATHER_AFTER_SECONDS how long a job that does not fit waits before GPUs
 * gather for it; GQ_MAX_CPU_JOBS how many CPU-only jobs run at once; GQ_LEASE_DIR where the machine-wide GPU leases are kept;
 * GQ_RECONCILE_INTERVAL_MS how often live jobs are re-checked against /proc and the GPUs;
 * GQ_PROGRESS_SAMPLE_MS how often running jobs' progress is noted unasked; GQ_SHARE_HEADROOM the
 * memory kept free on a shared GPU beyond its shared jobs' declarations (a size, default 1GiB);
 * GQ_IDLE_AFTER_SECONDS how long a running job's GPUs show 0 % utilisation before it is marked idle
 * (0: never). GQ_BOOT_ID_FILE and
 * GQ_TEST_LAUNCH_DELAY_MS exist for tests (a simulated reboot; a window between reservation and
 * launch wide enough to kill the daemon in).
 */
public record DaemonConfig(
    GqPaths paths,
    Path shim,
    Duration pollInterval,
    Duration cancelGrace,
    Duration livenessPoll,
    int snapshotEvery,
    Path bootIdFile,
    Duration testLaunchDelay,
    FailFast failFast,
    int maxClients,
    int maxStreams,
    Path leaseDir,
    Duration gatherAfter,
    int maxCpuJobs,
    Duration reconcileInterval,
    Duration progressSample,
    long shareHeadroomMiB,
    Duration idleAfter) {

  static final int MAX_CLIENTS = 10_000;

  public static DaemonConfig fromEnvironment(Map<String, String> env, String shimProperty) {
    GqPaths paths = GqPaths.fromEnvironment(env);
    if (shimProperty == null || shimProperty.isEmpty())
      throw new IllegalArgumentException("the daemon was started without -Dgq.shim=PATH (the job shim); start it with bin/gq-daemon");
    return new DaemonConfig(
        paths,
        Path.of(shimProperty),
        millis(env, "GQ_POLL_INTERVAL_MS", 1000, 50, 60_000),
        millis(env, "GQ_CANCEL_GRACE_MS", 10_000, 0, 3_600_000),
        millis(env, "GQ_LIVENESS_POLL_MS", 200, 10, 10_000),
        500,
        Path.of(env.getOrDefault("GQ_BOOT_ID_FILE", "/proc/sys/kernel/random/boot_id")),
        millis(env, "GQ_TEST_LAUNCH_DELAY_MS", 0, 0, 600_000),
        new FailFast((int) whole(env, "GQ_FAIL_FAST_COUNT", 3, 0, FailFast.MAX_COUNT, "jobs", FAIL_FAST_OFF),
            Duration.ofSeconds(whole(env, "GQ_FAIL_FAST_SECONDS", 60, 0, 86_400, "seconds", FAIL_FAST_OFF))),
        clients(env, "GQ_MAX_CLIENTS", "clients"),
        clients(env, "GQ_MAX_STREAMS", "streams"),
        LeaseFiles.directory(env),
        Duration.ofSeconds(whole(env, "GQ_GATHER_AFTER_SECONDS", PlanRules.GATHER_AFTER.toSeconds(),
            0, 30L * 86_400, "seconds", "")),
        (int) whole(env, "GQ_MAX_CPU_JOBS", 64, 1, MAX_CLIENTS, "jobs", ""),
        millis(env, "GQ_RECONCILE_INTERVAL_MS", 30_000, 100, 3_600_000),
        millis(env, "GQ_PROGRESS_SAMPLE_MS", 15_000, 100, 3_600_000),
        headroom(env.get("GQ_SHARE_HEADROOM")),
        Duration.ofSeconds(whole(env, "GQ_IDLE_AFTER_SECONDS", DecisionContext.IDLE_AFTER.toSeconds(),
            0, 30L * 86_400, "seconds", " (0 never marks a job idle)")));
  }

  /** GQ_SHARE_HEADROOM as MiB: a size (0 allowed, at most 64GiB); unset: 1 GiB. */
  static long headroom(String v) {
    if (v == null || v.isBlank()) return PlanRules.HEADROOM_MIB;
    if (v.strip().equals("0")) return 0;
    Long mib = GpuNeed.parseMiB(v);
    if (mib != null && mib <= 64L << 10) return mib;
    throw new IllegalArgumentException("GQ_SHARE_HEADROOM=" + v + " is not valid; give a size such as 1GiB, 2G or 512M (0 for none,"
        + " at most 64GiB)");
  }

  /**
   * GQ_MAX_CLIENTS (requests) or GQ_MAX_STREAMS (streams): how many are served at once; 0 or unset:
   * what the open-file limit leaves room for.
   */
  private static int clients(Map<String, String> env, String name, String unit) {
    String v = env.get(name);
    if (v == null || v.isBlank()) return 0;
    try {
      int n = Integer.parseInt(v.strip());
      if (n >= 0 && n <= MAX_CLIENTS) return n;
    } catch (NumberFormatException ignored) {
      // fall through to the message below
    }
    throw new IllegalArgumentException(name + "=" + v + " is not valid; use a whole number of " + unit + " between 0 and "
        + MAX_CLIENTS + " (0 lets the daemon's open-file limit decide)");
  }

  private static final String FAIL_FAST_OFF = " (0 turns fail-fast holds off)";

  /** A whole number in [min, max]; {@code note} ends the refusal (what 0 means, say), or is empty. */
  private static long whole(Map<String, String> env, String name, long dflt, long min, long max, String unit, String note) {
    String v = env.get(name);
    if (v == null || v.isBlank()) return dflt;
    try {
      long n = Long.parseLong(v.strip());
      if (n >= min && n <= max) return n;
    } catch (NumberFormatException ignored) {
      // fall through to the message below
    }
    throw new IllegalArgumentException(name + "=" + v + " is not valid; use a whole number of " + unit + " between "
        + min + " and " + max + note);
  }

  private static Duration millis(Map<String, String> env, String name, long dflt, long min, long max) {
    String v = env.get(name);
    if (v == null || v.isBlank()) return Duration.ofMillis(dflt);
    try {
      long ms = Long.parseLong(v.strip());
      if (ms >= min && ms <= max) return Duration.ofMillis(ms);
    } catch (NumberFormatException ignored) {
      // fall through to the message below
    }
    throw new IllegalArgumentException(name + "=" + v + " is not valid; use milliseconds between " + min + " and " + max);
  }
}
