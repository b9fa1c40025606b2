package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.GqApi;
import dev.gq.core.job.GpuNeed;
import dev.gq.core.job.JobSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --vram and --gpu-type on run, the shortcut and submit, their #gq directives and batch fields, and --to slurm. */
class GpuNeedOptionsTest {
  @TempDir Path dir;
  Cli cli;

  @BeforeEach
  void setUp() {
    cli = new Cli(dir);
  }

  private JobSpec last() {
    assertFalse(cli.api.submitted.isEmpty(), "a submit expected");
    return cli.api.submitted.get(cli.api.submitted.size() - 1);
  }

  @Test
  void runAndTheShortcutStoreTheMemoryInMiBAndTheTypes() {
    assertEquals(0, cli.run("run", "--vram", "40G", "--gpu-type", "H100,A100", "python", "x.py").code());
    assertEquals(new GpuNeed(38147, List.of("H100", "A100")), last().gpuNeed());
    assertEquals(0, cli.run("-g", "2", "--vram", "24GiB", "x").code());
    assertEquals(new GpuNeed(24576, List.of()), last().gpuNeed());
    assertEquals(0, cli.run("-g", "1", "x").code());
    assertNull(last().gpuNeed(), "without them: any GPU");
  }

  @Test
  void aBadSizeOrTypeIsAOneLineUsageError() {
    Cli.Result r = cli.run("run", "--vram", "40", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: invalid size '40' for --vram; give it with a unit"), r.err());
    r = cli.run("run", "--gpu-type", "A100,", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: invalid GPU type '' for --gpu-type"), r.err());
    assertTrue(cli.api.submitted.isEmpty());
  }

  @Test
  void directivesSetThemAndTheCommandLineReplacesEachPartItGives() throws Exception {
    Path script = dir.resolve("job.sh");
    Files.writeString(script, "#!/bin/bash\n#gq --vram=80G\n#gq --gpu-type H100\necho hi\n");
    assertEquals(0, cli.run("submit", script.toString()).code());
    assertEquals(new GpuNeed(76294, List.of("H100")), last().gpuNeed());
    assertEquals(0, cli.run("submit", "--vram", "40G", script.toString()).code());
    assertEquals(new GpuNeed(38147, List.of("H100")), last().gpuNeed(), "the script's type stays");
    Files.writeString(script, "#!/bin/bash\n#gq --vram=lots\n");
    Cli.Result r = cli.run("submit", script.toString());
    assertEquals(1, r.code());
    assertTrue(r.err().startsWith("gq: invalid size 'lots' for --vram;") && r.err().strip().endsWith("(line 2)"), r.err());
  }

  @Test
  void batchLinesTakeVramAndGpuTypeAndTheCommandLinesAsDefaults() throws Exception {
    Files.writeString(dir.resolve("jobs.txt"), "{\"argv\": [\"a\"], \"vram\": \"20G\", \"gpu_type\": [\"A100\", \"H100\"]}\n"
        + "{\"argv\": [\"b\"], \"gpu_type\": \"4090\"}\nc\n");
    Cli.Result r = cli.run("submit", "--batch", "jobs.txt", "--vram", "10G");
    assertEquals(0, r.code(), r.err());
    List<JobSpec> specs = cli.api.batches.get(0).stream().map(GqApi.BatchLine::spec).toList();
    assertEquals(new GpuNeed(19074, List.of("A100", "H100")), specs.get(0).gpuNeed());
    assertEquals(new GpuNeed(9537, List.of("4090")), specs.get(1).gpuNeed());
    assertEquals(new GpuNeed(9537, List.of()), specs.get(2).gpuNeed());
    Files.writeString(dir.resolve("bad.txt"), "{\"argv\": [\"a\"], \"vram\": 20}\n");
    r = cli.run("submit", "--batch", "bad.txt");
    assertEquals("gq: batch line 1: 'vram' must be a size such as \"40G\"; nothing was submitted\n", r.err());
  }

  @Test
  void slurmTakesOneTypeAndNoMemory() {
    assertNull(ClusterChoice.slurmNeed(GpuNeed.of(0, List.of("A100"))));
    assertTrue(ClusterChoice.slurmNeed(GpuNeed.of(1000, List.of())).startsWith("--vram is for this machine's GPUs: Slurm has no"));
    assertTrue(ClusterChoice.slurmNeed(GpuNeed.of(0, List.of("A100", "H100"))).startsWith("Slurm takes one GPU type"));
  }

  @Test
  void shareAndPerGpuAreStoredWithTheMemoryAndPerGpuAloneShares() {
    assertEquals(0, cli.run("run", "--share", "--vram", "20G", "python", "eval.py").code());
    assertEquals(new GpuNeed(19074, List.of(), true, 0), last().gpuNeed());
    assertEquals(0, cli.run("-g", "1", "--per-gpu", "4", "x").code());
    assertEquals(new GpuNeed(0, List.of(), true, 4), last().gpuNeed(), "--per-gpu shares by counting");
    assertEquals(0, cli.run("-g", "1", "--share", "--per-gpu", "2", "--vram", "30G", "--gpu-type", "H100", "x").code());
    assertEquals(new GpuNeed(28611, List.of("H100"), true, 2), last().gpuNeed());
    Cli.Result r = cli.run("run", "--per-gpu", "0", "x");
    assertEquals(2, r.code());
    assertTrue(r.err().startsWith("gq: --per-gpu must be from 1 to 64, not 0\n"), r.err());
  }

  @Test
  void shareDirectivesAndBatchFieldsAndTheCommandLineAddToEachOther() throws Exception {
    Path script = dir.resolve("eval.sh");
    Files.writeString(script, "#!/bin/bash\n#gq --share\n#gq --vram=20G\necho hi\n");
    assertEquals(0, cli.run("submit", script.toString()).code());
    assertEquals(new GpuNeed(19074, List.of(), true, 0), last().gpuNeed());
    assertEquals(0, cli.run("submit", "--per-gpu", "3", script.toString()).code());
    assertEquals(new GpuNeed(19074, List.of(), true, 3), last().gpuNeed(), "the script's share and memory stay");
    Files.writeString(script, "#!/bin/bash\n#gq --per-gpu=4\n");
    assertEquals(0, cli.run("submit", script.toString()).code());
    assertEquals(new GpuNeed(0, List.of(), true, 4), last().gpuNeed());
    Files.writeString(script, "#!/bin/bash\n#gq --per-gpu=many\n");
    Cli.Result r = cli.run("submit", script.toString());
    assertEquals(1, r.code());
    assertEquals("gq: --per-gpu must be from 1 to 64, not 'many' (line 2)\n", r.err());

    Files.writeString(dir.resolve("evals.txt"), "{\"argv\": [\"a\"], \"share\": true, \"vram\": \"10G\"}\n"
        + "{\"argv\": [\"b\"], \"per_gpu\": 8}\n{\"argv\": [\"c\"]}\n");
    r = cli.run("submit", "--batch", "evals.txt");
    assertEquals(0, r.code(), r.err());
    List<JobSpec> specs = cli.api.batches.get(0).stream().map(GqApi.BatchLine::spec).toList();
    assertEquals(new GpuNeed(9537, List.of(), true, 0), specs.get(0).gpuNeed());
    assertEquals(new GpuNeed(0, List.of(), true, 8), specs.get(1).gpuNeed());
    assertNull(specs.get(2).gpuNeed());
    Files.writeString(dir.resolve("bad.txt"), "{\"argv\": [\"a\"], \"share\": \"yes\"}\n");
    assertEquals("gq: batch line 1: 'share' must be true or false; nothing was submitted\n", cli.run("submit", "--batch", "bad.txt").err());
  }

  @Test
  void aShareWithoutMemoryOrACountIsRefusedSayingWhatToAdd() {
    assertEquals("--share needs the memory the job takes of a GPU: add --vram SIZE (e.g. --vram 20G) or --per-gpu K",
        dev.gq.core.ledger.SpecRules.check(new JobSpec(List.of("x"), "/w", java.util.Map.of(), 1, null, null, null)
            .withGpuNeed(new GpuNeed(0, List.of(), true, 0))));
    assertNull(dev.gq.core.ledger.SpecRules.check(new JobSpec(List.of("x"), "/w", java.util.Map.of(), 1, null, null, null)
        .withGpuNeed(new GpuNeed(0, List.of(), true, 2))));
  }

  @Test
  void slurmRefusesSharingInOneLine() {
    assertTrue(ClusterChoice.slurmNeed(GpuNeed.of(19074, List.of(), true, 0))
        .startsWith("--share and --per-gpu share this machine's GPUs: a Slurm cluster shares a GPU only through its own shard or MPS"));
  }
}
