package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gq.core.job.Attempts;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobQuery;
import dev.gq.core.ledger.LineageFact;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history's SQL and {@link Attempts} state one rule: on random histories of retries and
 * keys, the jobs {@code latestOnly} keeps, the groups' replaced counts and each job's newest attempt
 * are those the core rule gives.
 */
class NewestAttemptRuleTest {
  @TempDir Path dir;

  @Test
  void theHistorysQueriesFollowTheCoreRule() throws Exception {
    for (int seed = 1; seed <= 20; seed++) {
      Path db = dir.resolve("gq-" + seed + ".db");
      Database.prepare(db);
      try (JobHistory rs = JobHistory.open(db)) {
        write(new HistoryFixture(rs), new Random(seed));
        List<Job> all = rs.jobs(new JobQuery(List.of(), Set.of(), null, 0));
        List<Long> kept = all.stream().filter(j -> !Attempts.replaced(j, all)).map(Job::id).toList();
        assertEquals(kept, rs.jobs(new JobQuery(List.of(), Set.of(), null, 0, true, 0, null)).stream().map(Job::id).toList(),
            "seed " + seed);
        long replaced = all.stream().filter(j -> "g".equals(j.spec().group()) && Attempts.replaced(j, all)).count();
        assertEquals(replaced, rs.groups("g").getFirst().retried(), "seed " + seed);
        Map<Long, LineageFact> facts = rs.lineages(all.stream().map(Job::id).toList());
        for (Job j : all) {
          Job newest = Attempts.newest(j.lineage(), all).orElseThrow();
          assertEquals(new LineageFact(j.id(), j.lineage(), newest.id(), newest.state()), facts.get(j.id()), "seed " + seed);
        }
      }
    }
  }

  /** Thirty jobs: some first attempts, some retries of an earlier lineage, some sharing a key. */
  private static void write(HistoryFixture h, Random r) throws Exception {
    List<Long> roots = new ArrayList<>();
    for (long id = 1; id <= 30; id++) {
      Long retryOf = roots.isEmpty() || r.nextInt(3) > 0 ? null : roots.get(r.nextInt(roots.size()));
      String key = r.nextInt(3) == 0 ? "k" + r.nextInt(4) : null;
      String group = r.nextBoolean() ? "g" : null;
      if (r.nextBoolean()) h.ended(id, group, key, retryOf, r.nextInt(2), HistoryFixture.T0.plusSeconds(id));
      else h.submit(id, group, key, retryOf);
      if (retryOf == null) roots.add(id);
    }
  }
}
