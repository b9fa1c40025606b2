package dev.gq.actors.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * What a fault-injection run tells its reader: a one-line summary (seed, jobs, kills, kills that
 * landed between reservation and launch and what recovery made of those jobs, violations), the
 * files kept under {@code target/chaos/seed-S/} (daemon log, ledger, journal, summary), and, when
 * a check failed, the evidence: each named job's {@code gq show --json}, its journal events and
 * ledger lines, and the end of the daemon log.
 */
final class ChaosReport {
  private static final int EVIDENCE_JOBS = 8;
  private static final int LOG_LINES = 150;

  private final ChaosSettings settings;
  private final Gqd g;
  private final ChaosFaults faults;
  private final ChaosJournal journal;
  private final ChaosLedger ledger;
  private final ChaosChecker checker;
  final Path kept;

  ChaosReport(ChaosSettings settings, Gqd g, ChaosFaults faults, ChaosJournal journal, ChaosLedger ledger,
      ChaosChecker checker) {
    this.settings = settings;
    this.g = g;
    this.faults = faults;
    this.journal = journal;
    this.ledger = ledger;
    this.checker = checker;
    this.kept = Path.of("target", "chaos", "seed-" + settings.seed()).toAbsolutePath();
  }

  /** What recovery did with each job that was STARTING when a kill landed: its next event's type. */
  Map<String, Integer> windowOutcomes() {
    Map<String, Integer> out = new TreeMap<>();
    for (ChaosFaults.Kill k : faults.kills) {
      for (long id : k.starting()) {
        String next = "nothing";
        for (ChaosJournal.Event e : journal.of(id)) {
          if (e.ordering() > k.journalOrdering()) {
            next = e.type();
            break;
          }
        }
        out.merge(next, 1, Integer::sum);
      }
    }
    return out;
  }

  String summary(int jobs, int lostReplies, long wallSeconds) {
    return "chaos: seed=" + settings.seed() + " jobs=" + jobs + " (planned " + settings.jobs() + ") gpus=" + settings.gpus()
        + " kills=" + faults.kills.size() + " (timed " + faults.count(ChaosFaults.How.TIMED) + ", aimed "
        + faults.count(ChaosFaults.How.AIMED) + ", inside " + faults.count(ChaosFaults.How.INSIDE)
        + ") kills-between-reservation-and-launch="
        + faults.windowKills() + " starting-jobs-then=" + windowOutcomes() + " lost-submit-replies=" + lostReplies
        + " violations=" + checker.violations.size() + " wall=" + wallSeconds + "s";
  }

  /** Copies the run's records under target/chaos/seed-S/ (kept after the temporary folder is gone). */
  void keep(String summary) throws IOException {
    Files.createDirectories(kept);
    Files.writeString(kept.resolve("summary.txt"), summary + "\n" + settings.replay() + "\n"
        + checker.violations.stream().map(Object::toString).collect(Collectors.joining("\n", "", "\n")));
    Files.writeString(kept.resolve("daemon.log"), g.daemonLog());
    Files.write(kept.resolve("ledger.txt"), ledger.lines);
    Files.write(kept.resolve("journal.txt"), journal.events.stream().map(Object::toString).toList());
    Files.write(kept.resolve("kills.txt"), faults.kills.stream().map(Object::toString).toList());
  }

  /** The failure message: violations, then evidence for the first jobs they name. */
  String failure(String summary) {
    StringBuilder sb = new StringBuilder(summary).append('\n');
    sb.append("replay: ").append(settings.replay()).append('\n');
    sb.append("records kept in ").append(kept).append('\n');
    sb.append(checker.violations.size()).append(" violation(s):\n");
    checker.violations.stream().limit(60).forEach(v -> sb.append("  ").append(v).append('\n'));
    int shown = 0;
    for (long id : checker.jobsNamed()) {
      if (shown++ == EVIDENCE_JOBS) break;
      sb.append("\n--- job ").append(id).append(" ---\n");
      ChaosClient.Attempt show = ChaosClient.send(g, "show", "--json", String.valueOf(id));
      sb.append("gq show --json: ").append(show.result() == null ? "(no answer)" : show.result().out().strip()).append('\n');
      sb.append("journal:\n");
      journal.of(id).forEach(e -> sb.append("  ").append(e).append('\n'));
      sb.append("ledger: ").append(ledger.linesOf(id)).append('\n');
      sb.append("kills that found it STARTING: ")
          .append(faults.kills.stream().filter(k -> k.starting().contains(id)).map(ChaosFaults.Kill::n).toList()).append('\n');
    }
    List<String> log = g.daemonLog().lines().toList();
    sb.append("\n--- daemon log, last ").append(LOG_LINES).append(" lines ---\n");
    log.subList(Math.max(0, log.size() - LOG_LINES), log.size()).forEach(l -> sb.append(l).append('\n'));
    return sb.toString();
  }
}
