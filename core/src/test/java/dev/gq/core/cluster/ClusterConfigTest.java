package dev.gq.core.cluster;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The configuration file's cluster settings, and --to. */
class ClusterConfigTest {
  @Test
  void profilesTheDefaultTargetAndThePollRate() {
    Map<String, Object> doc = Map.of("to", "slurm:a100", "slurm_poll", "500ms",
        "slurm", Map.of("a100", Map.of("partition", "gpu", "account", "lab", "sbatch", List.of("--mem=8G"), "host", "login1")));
    ClusterConfig c = ClusterConfig.from(doc, "f.toml");
    assertEquals("a100", c.defaultProfile());
    assertEquals(Duration.ofMillis(500), c.poll());
    SlurmProfile p = c.profile("a100");
    assertEquals("gpu", p.partition());
    assertEquals(List.of("--mem=8G"), p.sbatch());
    assertEquals("login1", p.host());
    assertEquals(SlurmProfile.DEFAULT_WARNING, p.warning());
    assertNotNull(c.profile("default"), "--to slurm works with Slurm's own defaults");
    assertNull(c.profile("other"));
  }

  @Test
  void badValuesNameTheirKey() {
    assertTrue(problem(Map.of("slurm", Map.of("x", Map.of("partiton", "gpu")))).contains("unknown key slurm.x.partiton"));
    assertTrue(problem(Map.of("slurm", Map.of("x", Map.of("sbatch", "--mem=8G")))).contains("slurm.x.sbatch must be a list"));
    assertTrue(problem(Map.of("slurm", Map.of("x", Map.of("sbatch", List.of("mem=8G"))))).contains("start with '-'"));
    assertTrue(problem(Map.of("slurm", Map.of("x", Map.of("account", "a b")))).contains("one word"));
    assertTrue(problem(Map.of("slurm_poll", "fast")).contains("slurm_poll"));
    assertTrue(problem(Map.of("to", "slurm:nope")).contains("names no profile"));
    assertTrue(problem(Map.of("to", "cloud")).contains("--to"));
  }

  @Test
  void aKeyOrTableTheFileDoesNotTakeIsRefusedWithTheOneMeant() {
    assertEquals("f.toml: unknown key foo; the file takes to, slurm_poll and [slurm.NAME] tables", problem(Map.of("foo", 1L)));
    assertEquals("f.toml: unknown table [slurmm]; did you mean [slurm]?", problem(Map.of("slurmm", Map.of())));
    assertEquals("f.toml: unknown key slurm_pol; did you mean slurm_poll?", problem(Map.of("slurm_pol", "5s")));
    assertEquals("f.toml: unknown key slurm.x.partiton; did you mean slurm.x.partition?",
        problem(Map.of("slurm", Map.of("x", Map.of("partiton", "gpu")))));
    assertEquals("f.toml: unknown key slurm.x.colour; a profile takes partition, account, qos, sbatch, host, signal",
        problem(Map.of("slurm", Map.of("x", Map.of("colour", "red")))));
    assertEquals("f.toml: unknown key a\\x1b[31m; the file takes to, slurm_poll and [slurm.NAME] tables",
        problem(Map.of("a\u001b[31m", 1L)), "a key is shown escaped");
  }

  private static String problem(Map<String, Object> doc) {
    return assertThrows(IllegalArgumentException.class, () -> ClusterConfig.from(doc, "f.toml")).getMessage();
  }

  @Test
  void targets() {
    assertNull(ClusterTarget.profile("local"));
    assertEquals("default", ClusterTarget.profile("slurm"));
    assertEquals("a100", ClusterTarget.profile("slurm:a100"));
    assertThrows(IllegalArgumentException.class, () -> ClusterTarget.profile("slurm:"));
    assertThrows(IllegalArgumentException.class, () -> ClusterTarget.profile("slurm:a b"));
    assertEquals("slurm", ClusterTarget.text("default"));
    assertEquals("slurm:a100", ClusterTarget.text("a100"));
    assertEquals("local", ClusterTarget.text(null));
  }

  @Test
  void squeueLinesAndSbatchLines() {
    var jobs = SlurmJob.parse("12|RUNNING|None|n1\n13_2|PENDING|JobHeldUser|\ngarbage\n");
    assertTrue(jobs.get("12").running());
    assertTrue(jobs.get("13_2").held());
    assertEquals(2, jobs.size());
    assertEquals(List.of("#SBATCH --mem=1G", "#SBATCH -c 2"),
        SbatchLines.of("#!/bin/bash\n# a comment\n#SBATCH --mem=1G\n\n#SBATCH -c 2\necho hi\n#SBATCH --late\n"));
  }
}
