package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.api.GqApi;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DaemonCommandsTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  @Test
  void statusWithRealGpus() {
    Cli.Result r = cli.run("daemon", "status");
    assertEquals(0, r.code());
    assertEquals("""
        gq daemon is running (pid 4242, version 0.1.0, protocol 1)
        Data dir:  /data/gq
        GPUs:      2 GPUs (NVML 550.54)
        Jobs:      1 running, 3 waiting
        """, r.out());
  }

  @Test
  void statusShowsEachPartOfTheDaemonUnderOneHeading() {
    cli.api.parts = java.util.List.of("gpu watcher: ok, last reading 0.4 s ago",
        "history: failing for 12 s (cannot update the job history: disk full), last update 40 s ago");
    Cli.Result r = cli.run("daemon", "status");
    assertEquals(0, r.code());
    assertTrue(r.out().endsWith("""
        Jobs:      1 running, 3 waiting
        Parts:     gpu watcher: ok, last reading 0.4 s ago
                   history: failing for 12 s (cannot update the job history: disk full), last update 40 s ago
        """), r.out());
  }

  @Test
  void statusSaysPlainlyWhenGpusAreFakeOrNvmlIsMissing() {
    cli.api.info = new GqApi.DaemonInfo(1, "0.1.0", 1, "/d", "/tmp/fake", true, null, 1, 0, 0, "old client");
    Cli.Result r = cli.run("daemon", "status");
    assertTrue(r.out().contains("GPUs:      1 GPU, fake (/tmp/fake); no real device is used\n"), r.out());
    assertEquals("warning: old client\n", r.err());
    cli.api.info = new GqApi.DaemonInfo(1, "0.1.0", 1, "/d", "NVML", false, "libnvidia-ml.so.1 not found", 0, 0, 0, null);
    assertTrue(cli.run("daemon", "status").out().contains("GPUs:      NVML unavailable: libnvidia-ml.so.1 not found"));
  }

  @Test
  void statusSaysWhenTheLeaseDirectoryCannotBeWritten() {
    String why = "the lease directory /srv/leases is not writable by this user (Permission denied); run as its owner:"
        + " chmod 1777 /srv/leases, or set GQ_LEASE_DIR to a directory every gq user on the machine can write";
    java.util.List<dev.gq.core.gpu.GpuStatus> gpus = new java.util.ArrayList<>();
    for (int i = 0; i < 2; i++)
      gpus.add(new dev.gq.core.gpu.GpuStatus(i, "GPU-" + i, "Fake", dev.gq.core.gpu.GpuState.UNKNOWN, null,
          java.util.List.of(), 0, 0, dev.gq.core.alloc.GpuClassifier.LEASE_UNCHECKED + why));
    cli.api.gpus = new GqApi.GpuReport(gpus, "NVML 550.54", false, null);
    Cli.Result r = cli.run("daemon", "status");
    assertTrue(r.out().contains("\nLeases:    cannot be checked (2 GPUs UNKNOWN): " + why + "\n"), r.out());
  }

  @Test
  void statusSaysWhenTheJournalCannotBeWritten() {
    cli.api.journal = "cannot be written since 2026-12-01T22:44:06Z (/data/gq/gq.db): disk full; requests that change"
        + " anything are refused, and the ends of jobs are written as soon as it takes writes again";
    Cli.Result r = cli.run("daemon", "status");
    assertEquals(0, r.code());
    assertTrue(r.out().contains("Jobs:      1 running, 3 waiting\nJournal:   cannot be written since 2026-12-01T22:44:06Z"
        + " (/data/gq/gq.db): disk full; requests"), r.out());
  }

  @Test
  void stopSaysJobsKeepRunningThenShutsDown() {
    Cli.Result r = cli.run("daemon", "stop");
    assertEquals(0, r.code());
    assertEquals("daemon stopping; running jobs keep running\n", r.out());
    assertTrue(cli.api.shutdown);
  }

  @Test
  void stopTakesWaitOrNoWaitForItsClientAndRestartNeither() {
    assertEquals(0, cli.run("daemon", "stop", "--wait").code());
    assertEquals(0, cli.run("daemon", "stop", "--no-wait").code());
    assertTrue(cli.run("daemon", "stop", "--help").out().contains("--[no-]wait"));
    assertEquals(2, cli.run("daemon", "restart", "--no-wait").code(), "restart always waits");
    assertEquals(0, cli.run("daemon", "restart").code());
  }

  @Test
  void startAndRunMeetARunningDaemon() {
    assertEquals("gq daemon is already running (pid 4242)\n", cli.run("daemon", "start").out());
    Cli.Result r = cli.run("daemon", "run");
    assertEquals(1, r.code());
    assertEquals("gq: gq daemon is already running (pid 4242); stop it first with 'gq daemon stop'\n", r.err());
  }

  @Test
  void daemonAloneIsAUsageError() {
    Cli.Result r = cli.run("daemon");
    assertEquals(2, r.code());
    assertEquals("gq: say what to do: gq daemon status, start, stop, restart, run, install or uninstall\nTry 'gq daemon --help'.\n", r.err());
  }

  @Test
  void unknownDaemonCommand() {
    assertEquals("gq: unknown command 'reboot'\nTry 'gq daemon --help'.\n", cli.run("daemon", "reboot").err());
  }

  @Test
  void helpGivesEachSubcommandItsOwnDescription() {
    String help = cli.run("daemon", "--help").out();
    for (String line : new String[] {
        "install    Write a systemd user unit", "uninstall  Remove the systemd user unit"}) {
      assertTrue(help.contains(line), "'" + line + "' in:\n" + help);
    }
  }

  @Test
  void statusNamesAHeldQueueAndEachHeldGroupWithItsReason() {
    cli.api.queue = new GqApi.QueueState(true, java.util.Map.of("sweep-b", "held by the user",
        "sweep-a", "3 jobs in a row failed within 60s of starting: cannot run 'uv'"));
    Cli.Result r = cli.run("daemon", "status");
    assertEquals(0, r.code(), r.err());
    assertEquals("""
        gq daemon is running (pid 4242, version 0.1.0, protocol 1)
        Data dir:  /data/gq
        GPUs:      2 GPUs (NVML 550.54)
        Jobs:      1 running, 3 waiting
        Queue:     held; waiting jobs do not start until 'gq release --all'
        Held:      group sweep-a (3 jobs in a row failed within 60s of starting: cannot run 'uv'); 'gq release --group sweep-a' releases it
        Held:      group sweep-b (held by the user); 'gq release --group sweep-b' releases it
        """, r.out());
  }
}
