package dev.gq.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/**
 * {@code gq daemon install|uninstall}: writes (or removes) the systemd user unit that runs the
 * daemon outside the login session, so a logout or a closed terminal cannot end it or its jobs,
 * and says what to run next. It never starts or stops services itself.
 */
@Command(description = "Write (or remove) a systemd user unit that runs the daemon outside your login session.")
final class DaemonInstallCommand implements Callable<Integer> {
  private final Invocation inv;
  private final boolean install;

  DaemonInstallCommand(Invocation inv, boolean install) {
    this.inv = inv;
    this.install = install;
  }

  @Override
  public Integer call() {
    Path unit = SystemdUnit.file(inv.io().env());
    try {
      return install ? install(unit) : uninstall(unit);
    } catch (IOException e) {
      throw new RefusedException("cannot write " + unit + ": " + e.getMessage());
    }
  }

  private int install(Path unit) throws IOException {
    String cmd = inv.io().env().get("GQ_DAEMON_CMD");
    if (cmd == null || cmd.isEmpty())
      throw new RefusedException("cannot tell where the gq-daemon program is (GQ_DAEMON_CMD is not set); run this through the gq command");
    Files.createDirectories(unit.getParent());
    Files.writeString(unit, SystemdUnit.text(cmd, inv.io().env()));
    var out = inv.io().out();
    out.println("Wrote " + unit);
    out.println("To run the daemon under systemd from now on:");
    out.println("  gq daemon stop                      # running jobs keep running");
    out.println("  systemctl --user daemon-reload");
    out.println("  systemctl --user enable --now gq.service");
    out.println("  loginctl enable-linger \"$USER\"       # keep it running when you are logged out");
    return ExitCode.OK;
  }

  private int uninstall(Path unit) throws IOException {
    var out = inv.io().out();
    if (!Files.deleteIfExists(unit)) {
      out.println("No unit at " + unit + "; nothing to remove.");
      return ExitCode.OK;
    }
    Files.deleteIfExists(unit.resolveSibling("default.target.wants/gq.service"));
    out.println("Removed " + unit);
    out.println("If the service is running: systemctl --user stop gq.service; systemctl --user daemon-reload");
    return ExitCode.OK;
  }
}
