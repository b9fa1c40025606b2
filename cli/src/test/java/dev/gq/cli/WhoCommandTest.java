package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.GqApi;
import dev.gq.core.schedule.FairWho;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WhoCommandTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
    cli.io.stdoutTty = false;
    cli.io.env.put("TZ", "UTC");
  }

  @Test
  void everyUserIsARowThenThePolicyAndTheFilesNotCounted() {
    cli.api.who = new GqApi.WhoReport("at most 2 GPUs per user while others wait; fair turn 30s", true, List.of(
        new FairWho.Row("alice", 1001, 4, 4, 6, 6, Jobs.T0), new FairWho.Row("bob", 1002, 0, 0, 2, 2, Jobs.T0.plusSeconds(60))),
        Map.of("demand-1003-0123456789abcdef.demand", "its daemon (pid 9) has ended"));
    Cli.Result r = cli.run("who");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertTrue(lines.get(0).startsWith("USER   GPUS HELD  JOBS ON GPUS  WAITING  GPUS WANTED  WAITING SINCE"), r.out());
    assertTrue(lines.get(1).startsWith("alice  4          4             6        6"), r.out());
    assertTrue(lines.get(2).startsWith("bob    0          0             2        2"), r.out());
    assertEquals("Policy: at most 2 GPUs per user while others wait; fair turn 30s", lines.get(3));
    assertEquals("Not counted: demand-1003-0123456789abcdef.demand: its daemon (pid 9) has ended", lines.get(4));
  }

  @Test
  void aGpuAnAdminDrainedForEveryoneIsShownWithWhoAndWhy() {
    cli.api.who = new GqApi.WhoReport("none (first come, first served)", false, List.of(), Map.of(), List.of(), null,
        Map.of("GPU 0", "drained for every user's gq by alice (uid 1000): maintenance"));
    assertEquals("Nobody holds or waits for GPUs.\nPolicy: none (first come, first served)\n"
        + "Drained: GPU 0 drained for every user's gq by alice (uid 1000): maintenance\n", cli.run("who").out());
    assertEquals("drained for every user's gq by alice (uid 1000): maintenance",
        WhoCommand.json(cli.api.who).get("drained_for_everyone").get("GPU 0").asText());
  }

  @Test
  void aDrainOfThisUsersGqSaysItIsNotMachineWide() {
    cli.api.gpus = new GqApi.GpuReport(List.of(new dev.gq.core.gpu.GpuStatus(0, "GPU-0", "H100", dev.gq.core.gpu.GpuState.FREE,
        null, List.of(), 1, 0, null, null)), "fake", true, null);
    Cli.Result r = cli.run("gpu", "drain", "0");
    assertEquals("GPU 0 drained.\nYour gq only: other users' gq may still start jobs on GPU 0; to keep it from everyone's, root"
        + " or an admin of /etc/gq/policy.toml runs 'gq gpu drain 0 --all-users' (or lists it in the policy's interactive_gpus).\n",
        r.out(), r.err());
    r = cli.run("gpu", "drain", "0", "--all-users", "--reason", "maintenance");
    assertEquals("GPU 0 drained for every user: maintenance\n", r.out(), r.err());
  }

  @Test
  void nobodyAndNoPolicyAreSaidPlainly() {
    cli.api.who = new GqApi.WhoReport("none (first come, first served)", false, List.of(), Map.of());
    Cli.Result r = cli.run("who");
    assertEquals("Nobody holds or waits for GPUs.\nPolicy: none (first come, first served)\n", r.out());
  }

  @Test
  void theDaemonStatusSaysThePolicyOrWhyNone() {
    cli.api.who = new GqApi.WhoReport("the policy file /etc/gq/policy.toml is writable by others (mode 0666), ignored", false,
        List.of(), Map.of());
    Cli.Result r = cli.run("daemon", "status");
    assertTrue(r.out().contains("\nPolicy:    the policy file /etc/gq/policy.toml is writable by others (mode 0666), ignored\n"), r.out());
  }

  @Test
  void aDemandThatCannotBePublishedIsSaidByWhoAndTheDaemonStatus() {
    String why = "cannot publish this user's demand: cannot write /run/lock/gq/demand-1001-0123456789abcdef.demand: disk full";
    cli.api.who = new GqApi.WhoReport("none (first come, first served)", false, List.of(), Map.of(), List.of(), why);
    assertEquals("Nobody holds or waits for GPUs.\nPolicy: none (first come, first served)\nDemand: " + why + "\n",
        cli.run("who").out());
    Cli.Result r = cli.run("daemon", "status");
    assertTrue(r.out().contains("\nPolicy:    none (first come, first served)\nDemand:    " + why + "\n"), r.out());
    cli.api.who = new GqApi.WhoReport("none (first come, first served)", false, List.of(), Map.of());
    assertFalse(cli.run("daemon", "status").out().contains("Demand:"), "said only when there is a problem");
  }
}
