package dev.gq.actors.cluster;

import dev.gq.core.cluster.ClusterBatches;
import dev.gq.core.cluster.ClusterCell;
import dev.gq.core.cluster.ClusterConfig;
import dev.gq.core.cluster.ClusterObservation;
import dev.gq.core.cluster.SbatchScript;
import dev.gq.core.cluster.SlurmJob;
import dev.gq.core.cluster.SlurmProfile;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobState;
import dev.gq.core.launch.ExitRecord;
import dev.gq.core.launch.LaunchProblem;
import dev.gq.core.ledger.Ledger;
import dev.gq.core.schedule.Request;
import dev.gq.host.config.ConfigFile;
import dev.gq.host.launch.ExitFiles;
import dev.gq.host.slurm.SlurmCommands;
import java.io.IOException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass of the {@link ClusterBridge}: send, look, then carry cancels and holds to Slurm. Slurm's
 * refusal of a job (sbatch's error) fails that job with Slurm's line; a cluster that does not answer
 * leaves the jobs as they are, to be tried again on the next pass.
 */
final class ClusterPass {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterPass.class);
  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final long CANCEL_AGAIN_MS = 30_000;

  private final ClusterFiles files;
  private final LongFunction<Job> stored;
  private final Map<String, String> env;
  private final Map<Long, Long> cancelledAt = new HashMap<>();
  /** Whether Slurm holds each of its jobs, as the last squeue said. */
  private final Map<String, Boolean> heldThere = new HashMap<>();
  private ClusterConfig lastGood = ClusterConfig.NONE;
  private String lastConfigProblem;

  ClusterPass(ClusterFiles files, LongFunction<Job> stored, Map<String, String> env) {
    this.files = files;
    this.stored = stored;
    this.env = env;
  }

  /** The configuration file as it is now; the last good one when it cannot be read (said once in the log). */
  ClusterConfig config() {
    try {
      lastGood = ConfigFile.cluster(env);
      lastConfigProblem = null;
    } catch (IllegalArgumentException e) {
      if (!e.getMessage().equals(lastConfigProblem)) LOG.warn("{}; cluster jobs go on with the settings read before", e.getMessage());
      lastConfigProblem = e.getMessage();
    }
    return lastGood;
  }

  void run(Ledger l, ClusterConfig config, ClusterAsks scheduler) throws Exception {
    if (!ClusterBatches.unsent(l, Set.of()).isEmpty()) {
      send(l, config, scheduler);
      l = scheduler.ledger();
    }
    for (String profile : sentProfiles(l)) look(l, profile, config, scheduler);
    carry(scheduler.ledger(), config);
  }

  /** sbatch for each batch of the jobs that wait for it. */
  private void send(Ledger l, ClusterConfig config, ClusterAsks scheduler) throws Exception {
    List<ClusterCell> cells = new ArrayList<>();
    for (Job j : ClusterBatches.unsent(l, Set.of())) {
      Job whole = stored.apply(j.id());
      if (whole != null && whole.spec().hasCommand()) cells.add(ClusterFiles.cell(whole));
    }
    for (ClusterBatches.Batch b : ClusterBatches.plan(l, cells)) {
      SlurmProfile p = config.profile(b.profile());
      if (p == null) {
        scheduler.failed(ids(b.cells()), new LaunchProblem(LaunchProblem.Cause.NO_SLURM_PROFILE, b.profile()));
        continue;
      }
      SbatchScript.Places at = files.places(b.cells());
      var s = SbatchScript.of(b.cells(), p, at, b.throttle(), b.afterAny(), b.afterOk(), b.held(), env.get("SLURM_CONF"),
          ZoneId.systemDefault());
      List<String> argv = new ArrayList<>(List.of("sbatch"));
      argv.addAll(s.options());
      argv.add(files.write(b.cells(), s, at).toString());
      SlurmCommands.Result r;
      try {
        r = commands(config, b.profile()).run(argv);
      } catch (IOException e) {
        LOG.warn("sbatch for job(s) {} did not run: {}; tried again on the next pass", ids(b.cells()), e.getMessage());
        continue;
      }
      if (!r.ok()) {
        if (unreachable(r.firstLine())) {
          LOG.warn("sbatch: {}; tried again on the next pass", r.firstLine());
          continue;
        }
        scheduler.failed(ids(b.cells()), new LaunchProblem(LaunchProblem.Cause.SBATCH_REFUSED, r.firstLine()));
        continue;
      }
      String id = r.out().strip().split(";", 2)[0];
      Map<Long, String> sent = new LinkedHashMap<>();
      for (int i = 0; i < b.cells().size(); i++)
        sent.put(b.cells().get(i).jobId(), b.cells().size() == 1 ? id : id + "_" + i);
      List<Long> stale = scheduler.ask(new Request.ClusterSent(sent));
      List<String> gone = new ArrayList<>();
      for (long s2 : stale) gone.add(sent.get(s2));
      if (!gone.isEmpty()) scancel(commands(config, b.profile()), gone);
    }
  }

  /** One squeue for the profile's jobs; the exit records of those that ended; the Scheduler decides. */
  private void look(Ledger l, String profile, ClusterConfig config, ClusterAsks scheduler) throws Exception {
    String error = null;
    Map<String, SlurmJob> jobs = Map.of();
    try {
      var r = commands(config, profile).run(List.of("squeue", "-h", "-r", "-t", "all", "--me", "-o", SlurmJob.FORMAT));
      if (r.ok()) {
        jobs = SlurmJob.parse(r.out());
        heldThere.clear();
        jobs.values().forEach(j -> heldThere.put(j.id(), j.held()));
      }
      else error = "squeue: " + r.firstLine();
    } catch (IOException e) {
      error = e.getMessage();
    }
    Map<Long, ExitRecord> exits = new HashMap<>();
    if (error == null) {
      for (var e : l.settings().clusterIds().entrySet()) {
        Job j = l.live().get(e.getKey());
        SlurmJob s = jobs.get(e.getValue());
        if (j == null || !profile.equals(j.spec().cluster()) || (s != null && !s.ended())) continue;
        ExitFiles.read(files.exitFile(j.id())).ifPresent(x -> exits.put(j.id(), x));
      }
    }
    scheduler.ask(new Request.ClusterObserved(new ClusterObservation(profile, error, jobs, exits)));
  }

  /** scancel for the jobs being cancelled; scontrol hold or release where the ledger's wish and Slurm differ. */
  private void carry(Ledger l, ClusterConfig config) {
    long now = System.currentTimeMillis();
    Map<String, List<String>> cancel = new HashMap<>(), hold = new HashMap<>(), release = new HashMap<>();
    for (var e : l.settings().clusterIds().entrySet()) {
      Job j = l.live().get(e.getKey());
      if (j == null) continue;
      String profile = j.spec().cluster();
      if (j.state() == JobState.CANCELLING) {
        Long at = cancelledAt.get(j.id());
        if (at == null || now - at > CANCEL_AGAIN_MS) {
          cancel.computeIfAbsent(profile, k -> new ArrayList<>()).add(e.getValue());
          cancelledAt.put(j.id(), now);
        }
      } else if (j.state() == JobState.WAITING) {
        boolean want = ClusterBatches.held(l, j);
        Boolean has = heldThere.get(e.getValue());
        if (has != null && want != has) (want ? hold : release).computeIfAbsent(profile, k -> new ArrayList<>()).add(e.getValue());
      }
    }
    cancelledAt.keySet().retainAll(l.live().keySet());
    cancel.forEach((p, ids) -> scancel(commands(config, p), ids));
    hold.forEach((p, ids) -> scontrol(commands(config, p), "hold", ids));
    release.forEach((p, ids) -> scontrol(commands(config, p), "release", ids));
  }

  private void scancel(SlurmCommands c, List<String> ids) {
    List<String> argv = new ArrayList<>(List.of("scancel"));
    argv.addAll(ids);
    runQuietly(c, argv);
  }

  private void scontrol(SlurmCommands c, String verb, List<String> ids) {
    runQuietly(c, List.of("scontrol", verb, String.join(",", ids)));
  }

  private static void runQuietly(SlurmCommands c, List<String> argv) {
    try {
      var r = c.run(argv);
      if (!r.ok()) LOG.warn("{}: {}", String.join(" ", argv), r.firstLine());
    } catch (IOException e) {
      LOG.warn("{}: {}", argv.get(0), e.getMessage());
    }
  }

  private static List<Long> ids(List<ClusterCell> cells) {
    return cells.stream().map(ClusterCell::jobId).toList();
  }

  private static Set<String> sentProfiles(Ledger l) {
    Set<String> out = new LinkedHashSet<>();
    for (long id : l.settings().clusterIds().keySet()) {
      Job j = l.live().get(id);
      if (j != null && j.spec().onCluster()) out.add(j.spec().cluster());
    }
    return out;
  }

  /** Whether sbatch's error says the controller could not be reached (try again), not that it refused the job. */
  private static boolean unreachable(String line) {
    String t = line.toLowerCase(Locale.ROOT);
    return t.contains("unable to contact") || t.contains("timed out") || t.contains("connection refused")
        || t.contains("ssh:") || t.contains("slurm_persist_conn");
  }

  private SlurmCommands commands(ClusterConfig config, String profile) {
    SlurmProfile p = config.profile(profile);
    return new SlurmCommands(p == null ? null : p.host(), LIMIT);
  }
}
