package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

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
