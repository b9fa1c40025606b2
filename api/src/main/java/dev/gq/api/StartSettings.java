package dev.gq.api;

import dev.gq.core.job.PrintableText;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The settings the daemon reads from its environment once, when it starts (GPUs, leases, polls,
 * limits, notifications, logging). A command run from a shell that sets one of them to another
 * value than the running daemon has would silently get the daemon's; this says so, in one line
 * naming {@code gq daemon restart}. A setting the shell leaves unset is the daemon's business.
 */
public final class StartSettings {
  private StartSettings() {}

  public static final List<String> NAMES = List.of("GQ_FAKE_NVML", "GQ_LEASE_DIR", "GQ_POLL_INTERVAL_MS", "GQ_CANCEL_GRACE_MS",
      "GQ_FAIL_FAST_COUNT", "GQ_FAIL_FAST_SECONDS", "GQ_LIVENESS_POLL_MS", "GQ_GATHER_AFTER_SECONDS", "GQ_MAX_CPU_JOBS",
      "GQ_RECONCILE_INTERVAL_MS", "GQ_PROGRESS_SAMPLE_MS", "GQ_NOTIFY_TIMEOUT_MS", "GQ_NOTIFY_BACKOFF_MS",
      "GQ_NOTIFY_POLL_MS", "GQ_LOG_LEVEL", "GQ_MAX_CLIENTS", "GQ_MAX_STREAMS", "GQ_DAEMON_HEAP", "GQ_POLICY_FILE");

  /** The values {@code env} gives the settings in {@link #NAMES}, those it sets only. */
  public static Map<String, String> of(Map<String, String> env) {
    Map<String, String> m = new HashMap<>();
    for (String name : NAMES) if (env.get(name) != null) m.put(name, env.get(name));
    return Map.copyOf(m);
  }

  /** The note for a caller whose environment is {@code shell} and a daemon started with {@code daemon}; null when they agree. */
  public static String note(Map<String, String> shell, Map<String, String> daemon) {
    List<String> differ = new ArrayList<>();
    for (String name : NAMES) {
      String mine = shell.get(name);
      if (mine == null || mine.isEmpty() || mine.equals(daemon.get(name))) continue;
      String theirs = daemon.get(name);
      differ.add(name + "=" + PrintableText.escape(mine) + " (the daemon's: " + (theirs == null ? "unset" : PrintableText.escape(theirs)) + ")");
    }
    if (differ.isEmpty()) return null;
    return "note: " + String.join(", ", differ) + (differ.size() == 1 ? " is" : " are")
        + " read by the daemon when it starts, and the running one started with another value; 'gq daemon restart' applies"
        + (differ.size() == 1 ? " it" : " them") + " (running jobs keep running)";
  }
}
