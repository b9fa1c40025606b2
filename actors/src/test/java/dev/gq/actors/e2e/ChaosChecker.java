package dev.gq.actors.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gq.actors.e2e.ChaosWorkload.Plan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The end-of-run checks of a fault-injection run. Each planned job exists exactly once (by its
 * key) and ended in the right state with its real exit code; each ran exactly once according to
 * the ledger (one start, one end; a job requeued before launch still starts once), on the GPUs gq
 * recorded, and gq did not end it before its last process wrote its end line; no GPU was used by
 * two jobs at overlapping times; the journal records at most one
 * launch per job; no process of the run outlives its jobs; every GPU is FREE at the end.
 */
final class ChaosChecker {
  /** One broken promise; {@code jobId} null when it concerns no single job. */
  record Violation(Long jobId, String text) {
    @Override
    public String toString() {
      return (jobId == null ? "" : "job " + jobId + ": ") + text;
    }
  }

  final List<Violation> violations = new ArrayList<>();

  private void fail(Long jobId, String text) {
    violations.add(new Violation(jobId, text));
  }

  /** Checks the jobs ({@code gq ps --all --json}) against the plans, the ledger and the journal. */
  void jobs(List<Plan> plans, Map<Integer, Long> ids, JsonNode all, ChaosLedger ledger, ChaosJournal journal) {
    Map<Long, JsonNode> byId = new HashMap<>();
    Map<String, Integer> perKey = new HashMap<>();
    for (JsonNode j : all) {
      byId.put(j.get("id").asLong(), j);
      perKey.merge(j.path("key").asText("(none)"), 1, Integer::sum);
    }
    perKey.forEach((k, n) -> {
      if (n != 1) fail(null, n + " jobs carry key " + k + " (a submit stored twice, or a job nobody submitted)");
    });
    if (all.size() != plans.size()) fail(null, plans.size() + " jobs submitted but gq lists " + all.size());
    for (Plan p : plans) {
      Long id = ids.get(p.n());
      if (id == null) {
        fail(null, p + " never got a job id");
        continue;
      }
      JsonNode j = byId.get(id);
      if (j == null) {
        fail(id, p + " is lost: gq does not list it");
        continue;
      }
      job(p, id, j, ledger, journal);
    }
    for (long id : ledger.starts.keySet()) if (!byId.containsKey(id)) fail(id, "in the ledger but not a job gq lists");
    for (String line : ledger.malformed) fail(null, "malformed ledger line: " + line);
  }

  private void job(Plan p, long id, JsonNode j, ChaosLedger ledger, ChaosJournal journal) {
    String state = j.get("state").asText();
    JsonNode code = j.get("exit_code");
    if (!state.equals(p.expectedState()) || code.isNull() || code.asInt() != p.expectedCode())
      fail(id, p + " should be " + p.expectedState() + " with exit code " + p.expectedCode()
          + " but is " + state + " with exit code " + code + " (" + j.path("failure_reason").asText() + ")");
    String last = journal.lastType(id);
    if (journal.ends(last) && Set.of("WAITING", "STARTING", "RUNNING", "CANCELLING").contains(state))
      fail(id, "gq lists it as " + state + " but the journal ends it with " + last + " (the job history missed events)");
    if (j.get("requested_gpus").asInt() != p.gpus()) fail(id, "requested_gpus " + j.get("requested_gpus") + ", planned " + p.gpus());
    List<String> held = new ArrayList<>();
    j.get("gpu_uuids").forEach(u -> held.add(u.asText()));
    if (held.size() != p.gpus()) fail(id, "holds GPUs " + held + " but asked for " + p.gpus());
    List<ChaosLedger.Start> starts = ledger.starts.getOrDefault(id, List.of());
    List<Long> ends = ledger.ends.getOrDefault(id, List.of());
    if (starts.size() != 1) fail(id, "started " + starts.size() + " times (ledger: " + ledger.linesOf(id) + ")");
    if (ends.size() != 1) fail(id, "ended " + ends.size() + " times (ledger: " + ledger.linesOf(id) + ")");
    JsonNode endTime = j.get("end_time");
    if (!endTime.isNull() && ends.size() == 1) {
      java.time.Instant at = java.time.Instant.parse(endTime.asText());
      long ns = at.getEpochSecond() * 1_000_000_000L + at.getNano();
      if (ns < ends.get(0)) fail(id, "gq ended it at " + at + ", " + (ends.get(0) - ns) / 1_000_000
          + " ms before its last process wrote its end line: its GPUs were released while it ran");
    }
    for (ChaosLedger.Start s : starts)
      if (!new HashSet<>(s.gpus()).equals(new HashSet<>(held)))
        fail(id, "ran with GQ_GPU_UUIDS " + s.gpus() + " but gq recorded " + held);
    ChaosJournal.Event launched = journal.last(id, "JobLaunched");
    if (launched != null && j.get("pid").asLong(-1) != launched.body().path("identity").path("pid").asLong())
      fail(id, "gq shows pid " + j.get("pid") + " but the journal launched it as " + launched.body().path("identity")
          + " (the job history missed events)");
    if (journal.count(id, "JobSubmitted") != 1) fail(id, "submitted " + journal.count(id, "JobSubmitted") + " times in the journal");
    if (journal.count(id, "JobLaunched") > 1) fail(id, "launched " + journal.count(id, "JobLaunched") + " times in the journal");
  }

  /** No GPU was in two jobs' hands at overlapping times, per the ledger's start and end stamps. */
  void overlaps(ChaosLedger ledger) {
    record Use(long job, long from, long to) {}
    Map<String, List<Use>> perGpu = new HashMap<>();
    ledger.starts.forEach((id, starts) -> {
      List<Long> ends = ledger.ends.getOrDefault(id, List.of());
      for (ChaosLedger.Start s : starts) {
        // A job that never wrote its end holds its GPUs for good, as far as this check knows.
        long to = ends.stream().filter(e -> e >= s.ns()).min(Long::compare).orElse(Long.MAX_VALUE);
        for (String gpu : s.gpus()) perGpu.computeIfAbsent(gpu, k -> new ArrayList<>()).add(new Use(id, s.ns(), to));
      }
    });
    perGpu.forEach((gpu, uses) -> {
      uses.sort(Comparator.comparingLong(Use::from));
      Use open = null;
      for (Use u : uses) {
        if (open != null && u.from() <= open.to())
          fail(u.job(), "used " + gpu + " from " + u.from() + " while job " + open.job() + " held it ("
              + open.from() + " .. " + open.to() + ")");
        if (open == null || u.to() > open.to()) open = u;
      }
    });
  }

  /** Every GPU must be FREE once all jobs have ended. */
  void gpus(JsonNode gpus) {
    for (JsonNode gpu : gpus)
      if (!gpu.get("state").asText().equals("FREE")) fail(null, "GPU " + gpu.get("index") + " is not FREE at the end: " + gpu);
  }

  void strays(List<String> strays) {
    for (String s : strays) fail(null, "process left after every job ended: " + s);
  }

  /** Live processes (not zombies, not the daemon) that carry this run's GQ_DATA_DIR. */
  static List<String> strays(Gqd g) {
    List<String> out = new ArrayList<>();
    String mark = "GQ_DATA_DIR=" + g.data + "\0";
    long daemon = g.process().pid();
    for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
      if (p.pid() == daemon) continue;
      Path proc = Path.of("/proc", String.valueOf(p.pid()));
      try {
        String stat = Files.readString(proc.resolve("stat"));
        char st = stat.charAt(stat.lastIndexOf(')') + 2);
        if (st == 'Z' || st == 'X') continue;
        if (Files.readString(proc.resolve("environ")).contains(mark))
          out.add("pid " + p.pid() + ": " + Files.readString(proc.resolve("cmdline")).replace('\0', ' ').strip());
      } catch (IOException | RuntimeException ignored) {
        // gone, or not readable: not ours
      }
    }
    return out;
  }

  /** Job ids the violations name, in order, for the evidence section of a report. */
  Set<Long> jobsNamed() {
    Set<Long> out = new TreeSet<>();
    for (Violation v : violations) if (v.jobId() != null) out.add(v.jobId());
    return out;
  }
}
