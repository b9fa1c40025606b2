package dev.gq.core.cluster;

import dev.gq.core.job.JobSpec;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one sbatch call gets for one job or an array of jobs of one {@link Shape}: its options, the
 * batch script (the {@code #SBATCH} lines passed through, then the choice of the job's own script)
 * and each job's own script, which keeps only Slurm's variables of the environment it is given, sets
 * the job's stored one, runs the command as a child (forwarding TERM, INT and the warning signal),
 * requeues the job while retries are left, and writes the exit record as gq's shim does. A
 * single job's log is its {@code --output}; an array's {@code --output} is {@code %a} in a directory
 * of links to each job's log. Pure: the caller writes the files and runs sbatch.
 */
public final class SbatchScript {
  private SbatchScript() {}

  /** The options, the batch script, each job's script, and each array task's log link (task index → log path). */
  public record Submission(List<String> options, String batchScript, Map<Long, String> jobScripts,
      Map<Integer, String> logLinks) {}

  /** Where the files of one sbatch call go: the job scripts and exit records, and the array's link directory (null: a single job). */
  public record Places(Path jobDir, Path arrayDir) {
    public Path script(long jobId) { return jobDir.resolve(jobId + ".sh"); }
    public Path exit(long jobId) { return jobDir.resolve(jobId + ".exit"); }
  }

  /** "a100:" for a job of {@code --gpu-type A100}, the type as Slurm names it (lower case); "" for any GPU. */
  static String gresType(JobSpec s) {
    var need = s.gpuNeed();
    if (need == null || need.types().isEmpty()) return "";
    return need.types().get(0).toLowerCase(Locale.ROOT) + ":";
  }

  // Slurm's own variables (and the GPUs it gives) survive the job's environment being replaced.
  private static final String KEEP = "SLURM_*|SLURMD_*|CUDA_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|ROCR_VISIBLE_DEVICES"
      + "|ZE_AFFINITY_MASK|SLURM_CONF";

  /**
   * The submission of {@code cells} (one shape; more than one: an array throttled to {@code throttle}
   * tasks at once, 0: none), after the Slurm jobs {@code afterAny} and {@code afterOk}, held when
   * {@code held}; {@code slurmConf} is passed on to the jobs (null: none).
   */
  public static Submission of(List<ClusterCell> cells, SlurmProfile p, Places at, int throttle, List<String> afterAny,
      List<String> afterOk, boolean held, String slurmConf, ZoneId zone) {
    if (cells.isEmpty()) throw new IllegalArgumentException("no job to submit");
    ClusterCell first = cells.get(0);
    JobSpec s = first.spec();
    boolean array = cells.size() > 1;
    List<String> o = new ArrayList<>();
    o.add("--parsable");
    o.add("--job-name=" + jobName(first, array));
    o.add("--chdir=" + s.cwd());
    o.add("--output=" + (array ? at.arrayDir().resolve("%a.log") : first.logPath()));
    o.add("--open-mode=append");
    o.add("--export=NONE");
    if (array) o.add("--array=0-" + (cells.size() - 1) + (throttle > 0 ? "%" + throttle : ""));
    if (s.gpus() > 0) o.add("--gres=gpu:" + gresType(s) + s.gpus());
    if (s.timeLimit() != null) {
      o.add("--time=" + SlurmShell.time(s.timeLimit()));
      o.add("--signal=B:" + p.warning());
    }
    if (s.begin() != null)
      o.add("--begin=" + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(s.begin().truncatedTo(ChronoUnit.SECONDS).atZone(zone).toLocalDateTime()));
    if (s.retries() > 0) o.add("--requeue");
    if (p.partition() != null) o.add("--partition=" + p.partition());
    if (p.account() != null) o.add("--account=" + p.account());
    if (p.qos() != null) o.add("--qos=" + p.qos());
    List<String> deps = new ArrayList<>();
    if (!afterAny.isEmpty()) deps.add("afterany:" + String.join(":", afterAny));
    if (!afterOk.isEmpty()) deps.add("afterok:" + String.join(":", afterOk));
    if (!deps.isEmpty()) {
      o.add("--dependency=" + String.join(",", deps));
      o.add("--kill-on-invalid-dep=yes");
    }
    if (held) o.add("--hold");
    o.addAll(p.sbatch());
    Map<Long, String> scripts = new LinkedHashMap<>();
    Map<Integer, String> links = new LinkedHashMap<>();
    for (int i = 0; i < cells.size(); i++) {
      ClusterCell c = cells.get(i);
      scripts.put(c.jobId(), jobScript(c, at, slurmConf));
      if (array) links.put(i, c.logPath());
    }
    return new Submission(List.copyOf(o), batchScript(cells, at), scripts, links);
  }

  private static String jobName(ClusterCell c, boolean array) {
    JobSpec s = c.spec();
    String n = array && s.group() != null ? s.group() : s.name() != null ? s.name()
        : Path.of(s.argv().get(0)).getFileName().toString();
    n = n.replaceAll("[^A-Za-z0-9._+=-]", "_");
    return n.length() > 64 ? n.substring(0, 64) : n;
  }

  private static String batchScript(List<ClusterCell> cells, Places at) {
    StringBuilder b = new StringBuilder("#!/bin/bash\n");
    for (String line : cells.get(0).sbatchLines()) b.append(line).append('\n');
    b.append("# written by gq: Slurm runs gq's script of each job\n");
    if (cells.size() == 1) {
      b.append("exec /bin/bash ").append(SlurmShell.quote(at.script(cells.get(0).jobId()).toString())).append('\n');
      return b.toString();
    }
    b.append("case ${SLURM_ARRAY_TASK_ID-} in\n");
    for (int i = 0; i < cells.size(); i++) b.append("  ").append(i).append(") job=").append(cells.get(i).jobId()).append(" ;;\n");
    b.append("  *) echo \"gq: array task ${SLURM_ARRAY_TASK_ID-} is not one of gq's\" >&2; exit 1 ;;\nesac\n");
    b.append("exec /bin/bash ").append(SlurmShell.quote(at.jobDir().toString())).append("/\"$job\".sh\n");
    return b.toString();
  }

  static String jobScript(ClusterCell c, Places at, String slurmConf) {
    JobSpec s = c.spec();
    StringBuilder b = new StringBuilder("#!/bin/bash\n# gq job ").append(c.jobId()).append(", run by Slurm\n");
    b.append("while IFS= read -r gq_v; do case $gq_v in ").append(KEEP).append(") ;; *) unset \"$gq_v\" ;; esac; done < <(compgen -e)\n");
    for (Map.Entry<String, String> e : new TreeMap<>(s.env()).entrySet())
      if (SlurmShell.variable(e.getKey())) b.append("export ").append(SlurmShell.quote(e.getKey() + "=" + e.getValue())).append('\n');
    if (slurmConf != null) b.append("export ").append(SlurmShell.quote("SLURM_CONF=" + slurmConf)).append('\n');
    b.append("export GQ_JOB_ID=").append(c.jobId()).append(" GQ_JOB_TAG=").append(SlurmShell.quote(c.tag())).append('\n');
    if (s.group() != null) b.append("export GQ_GROUP=").append(SlurmShell.quote(s.group())).append('\n');
    if (s.key() != null) b.append("export GQ_KEY=").append(SlurmShell.quote(s.key())).append('\n');
    String exit = SlurmShell.quote(at.exit(c.jobId()).toString());
    String tmp = SlurmShell.quote(at.exit(c.jobId()) + ".tmp");
    b.append("gq_record() { printf '%s\\n' \"$1\" >").append(tmp).append(" && mv -f ").append(tmp).append(' ').append(exit).append("; }\n");
    b.append("cd -- ").append(SlurmShell.quote(s.cwd())).append(" || { gq_record 'exec-error cannot enter ")
        .append(s.cwd().replace("'", "")).append("'; exit 1; }\n");
    b.append("gq_child=\n");
    b.append("gq_pass() { if [ -n \"$gq_child\" ]; then kill -s \"$1\" \"$gq_child\" 2>/dev/null; fi; }\n");
    b.append("trap 'gq_pass TERM' TERM; trap 'gq_pass INT' INT; trap 'gq_pass USR1' USR1; trap 'gq_pass USR2' USR2\n");
    b.append(String.join(" ", s.argv().stream().map(SlurmShell::quote).toList())).append(" &\n");
    b.append("gq_child=$!\n");
    b.append("while :; do wait \"$gq_child\"; gq_code=$?; kill -0 \"$gq_child\" 2>/dev/null || break; done\n");
    if (s.retries() > 0) {
      b.append("if [ \"$gq_code\" -ne 0 ] && [ \"${SLURM_RESTART_COUNT:-0}\" -lt ").append(s.retries()).append(" ]; then\n");
      b.append("  echo \"gq: exit code $gq_code; Slurm runs the job again (retry $((${SLURM_RESTART_COUNT:-0} + 1)) of ")
          .append(s.retries()).append(")\" >&2\n");
      b.append("  scontrol requeue \"$SLURM_JOB_ID\" && exit \"$gq_code\"\n");
      b.append("  echo \"gq: scontrol requeue failed; the job ends here\" >&2\nfi\n");
    }
    b.append("gq_record \"exit $gq_code\"\nexit \"$gq_code\"\n");
    return b.toString();
  }
}
