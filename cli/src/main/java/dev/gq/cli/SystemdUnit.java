package dev.gq.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The systemd user unit that runs the gq daemon outside any login session: KillMode=process, so
 * stopping or restarting the service ends only the daemon and never its jobs. Settings that
 * decide where gq keeps its files are carried over from the caller's environment.
 */
final class SystemdUnit {
  static final List<String> CARRIED = List.of("GQ_DATA_DIR", "GQ_RUNTIME_DIR", "GQ_FAKE_NVML", "GQ_CANCEL_GRACE_MS",
      "GQ_POLL_INTERVAL_MS", "PATH");

  private SystemdUnit() {}

  /** Where the unit goes: $XDG_CONFIG_HOME/systemd/user/gq.service, else ~/.config/systemd/user/gq.service. */
  static Path file(Map<String, String> env) {
    String xdg = env.get("XDG_CONFIG_HOME");
    Path base = xdg != null && !xdg.isEmpty() ? Path.of(xdg) : Path.of(env.getOrDefault("HOME", "/"), ".config");
    return base.resolve("systemd/user/gq.service");
  }

  static String text(String daemonCommand, Map<String, String> env) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Written by 'gq daemon install'; remove with 'gq daemon uninstall'.\n");
    sb.append("[Unit]\nDescription=gq GPU job scheduler (per-user daemon)\n\n[Service]\nType=simple\n");
    sb.append("ExecStart=").append(quote(daemonCommand)).append('\n');
    for (String name : CARRIED) {
      String v = env.get(name);
      if (v != null && !v.isEmpty()) sb.append("Environment=").append(quote(name + "=" + v)).append('\n');
    }
    sb.append("# Stopping the service stops the daemon only; jobs run on under their own shims.\n");
    sb.append("KillMode=process\nRestart=on-failure\nRestartSec=2\n\n[Install]\nWantedBy=default.target\n");
    return sb.toString();
  }

  /** systemd's quoting: double quotes, with backslash, quote and percent escaped. */
  static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("%", "%%") + '"';
  }
}
