package dev.gq.core.cluster;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.core.job.JobSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each of gq's options as sbatch gets it, and the job's own script. */
class SbatchScriptTest {
  static final SbatchScript.Places AT = new SbatchScript.Places(Path.of("/d/cluster/jobs"), null);

  static ClusterCell cell(long id, JobSpec s) {
    return new ClusterCell(id, s, "/d/logs/" + id + ".log", "tag" + id, List.of());
  }

  static JobSpec spec(int gpus) {
    return new JobSpec(List.of("python", "train.py", "--lr", "it's"), "/work/run", Map.of("PATH", "/usr/bin", "A", "1"),
        gpus, "train", "sweep", "k1").withCluster("default");
  }

  static List<String> options(JobSpec s, SlurmProfile p) {
    return SbatchScript.of(List.of(cell(3, s)), p, AT, 0, List.of(), List.of(), false, null, ZoneOffset.UTC).options();
  }

  @Test
  void gpusTimeNameDirectoryAndLog() {
    List<String> o = options(spec(2).withTimeLimit(Duration.ofMinutes(90)), SlurmProfile.defaults("default"));
    assertTrue(o.contains("--gres=gpu:2"), o.toString());
    assertTrue(o.contains("--time=0-01:30:00"), o.toString());
    assertTrue(o.contains("--signal=B:USR2@90"), o.toString());
    assertTrue(o.contains("--job-name=train"), o.toString());
    assertTrue(o.contains("--chdir=/work/run"), o.toString());
    assertTrue(o.contains("--output=/d/logs/3.log"), o.toString());
    assertTrue(o.contains("--open-mode=append"), o.toString());
    assertTrue(o.contains("--export=NONE"), o.toString());
    assertTrue(o.contains("--parsable"), o.toString());
  }

  @Test
  void aGpuTypeBecomesTheGresTypeInSlurmsLowerCase() {
    List<String> o = options(spec(2).withGpuNeed(dev.gq.core.job.GpuNeed.of(0, List.of("A100"))), SlurmProfile.defaults("default"));
    assertTrue(o.contains("--gres=gpu:a100:2"), o.toString());
  }

  @Test
  void noGpusNoGresNoLimitNoSignal() {
    List<String> o = options(spec(0), SlurmProfile.defaults("default"));
    assertTrue(o.stream().noneMatch(x -> x.startsWith("--gres") || x.startsWith("--time") || x.startsWith("--signal")), o.toString());
  }

  @Test
  void theProfilesSettingsAndExtraOptions() {
    var p = new SlurmProfile("a100", "gpu", "lab", "high", List.of("--mem=32G", "--cpus-per-task=8"), null, "USR1@60");
    List<String> o = options(spec(1).withTimeLimit(Duration.ofHours(2)), p);
    assertTrue(o.containsAll(List.of("--partition=gpu", "--account=lab", "--qos=high", "--mem=32G", "--cpus-per-task=8",
        "--signal=B:USR1@60")), o.toString());
  }

  @Test
  void dependenciesRetriesBeginAndHold() {
    var s = SbatchScript.of(List.of(cell(3, spec(1).withRetries(2).withBegin(Instant.parse("2026-12-01T08:30:00Z")))),
        SlurmProfile.defaults("default"), AT, 0, List.of("11", "12"), List.of("13"), true, null, ZoneOffset.UTC);
    assertTrue(s.options().contains("--dependency=afterany:11:12,afterok:13"), s.options().toString());
    assertTrue(s.options().contains("--kill-on-invalid-dep=yes"));
    assertTrue(s.options().contains("--requeue"));
    assertTrue(s.options().contains("--begin=2026-12-01T08:30:00"), s.options().toString());
    assertTrue(s.options().contains("--hold"));
    assertTrue(s.jobScripts().get(3L).contains("scontrol requeue"), "retries are Slurm requeues");
    assertTrue(s.jobScripts().get(3L).contains("-lt 2 ]"), s.jobScripts().get(3L));
  }

  @Test
  void anArrayOfCellsThrottledWithLinksToEachLog() {
    var at = new SbatchScript.Places(Path.of("/d/cluster/jobs"), Path.of("/d/cluster/arrays/5"));
    var s = SbatchScript.of(List.of(cell(5, spec(1)), cell(6, spec(1)), cell(9, spec(1))), SlurmProfile.defaults("default"),
        at, 2, List.of(), List.of(), false, null, ZoneOffset.UTC);
    assertTrue(s.options().contains("--array=0-2%2"), s.options().toString());
    assertTrue(s.options().contains("--output=/d/cluster/arrays/5/%a.log"), s.options().toString());
    assertTrue(s.options().contains("--job-name=sweep"), "an array is named after its group");
    assertEquals(Map.of(0, "/d/logs/5.log", 1, "/d/logs/6.log", 2, "/d/logs/9.log"), s.logLinks());
    assertTrue(s.batchScript().contains("2) job=9 ;;"), s.batchScript());
    assertEquals(3, s.jobScripts().size());
  }

  @Test
  void sbatchLinesOfTheScriptComeFirstUntouched() {
    var c = new ClusterCell(3, spec(1), "/d/logs/3.log", "t", List.of("#SBATCH --mem=64G", "#SBATCH   -c 4"));
    var s = SbatchScript.of(List.of(c), SlurmProfile.defaults("default"), AT, 0, List.of(), List.of(), false, null, ZoneOffset.UTC);
    assertTrue(s.batchScript().startsWith("#!/bin/bash\n#SBATCH --mem=64G\n#SBATCH   -c 4\n"), s.batchScript());
  }

  @Test
  void theJobsScriptSetsItsStoredEnvironmentAndRecordsItsExit() {
    String js = SbatchScript.jobScript(cell(3, spec(1)), AT, "/etc/slurm/x.conf");
    assertTrue(js.contains("compgen -e"), "the environment it is given is cleared but for Slurm's own");
    assertTrue(js.contains("export 'A=1'"), js);
    assertTrue(js.contains("export GQ_JOB_ID=3 GQ_JOB_TAG='tag3'"), js);
    assertTrue(js.contains("export GQ_KEY='k1'"), js);
    assertTrue(js.contains("'python' 'train.py' '--lr' 'it'\\''s' &"), js);
    assertTrue(js.contains("/d/cluster/jobs/3.exit"), js);
    assertTrue(js.contains("trap 'gq_pass USR2' USR2"), js);
    assertTrue(js.contains("export 'SLURM_CONF=/etc/slurm/x.conf'"), js);
  }

  @Test
  void timeLimitsInSlurmsForm() {
    assertEquals("0-00:01:00", SlurmShell.time(Duration.ofMinutes(1)));
    assertEquals("3-00:00:01", SlurmShell.time(Duration.ofDays(3).plusMillis(300)));
  }
}
