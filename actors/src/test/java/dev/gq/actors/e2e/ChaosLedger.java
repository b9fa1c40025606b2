package dev.gq.actors.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ledger the chaos jobs write: {@code start ID EPOCH_NS UUIDS} when a job starts ({@code -}
 * for no GPU) and {@code end ID EPOCH_NS} just before it exits, after its children are done. Parsed
 * into the starts and ends of each job id, plus any line that does not parse.
 */
final class ChaosLedger {
  /** One start line: when, and on which GPUs (empty for a CPU-only job). */
  record Start(long ns, List<String> gpus) {}

  final Map<Long, List<Start>> starts = new TreeMap<>();
  final Map<Long, List<Long>> ends = new TreeMap<>();
  final List<String> malformed = new ArrayList<>();
  final List<String> lines;

  private ChaosLedger(List<String> lines) {
    this.lines = lines;
    for (String line : lines) parse(line);
  }

  static ChaosLedger read(Path file) throws IOException {
    return new ChaosLedger(Files.exists(file) ? Files.readAllLines(file) : List.of());
  }

  private void parse(String line) {
    String[] f = line.strip().split(" ");
    try {
      if (f.length == 4 && f[0].equals("start")) {
        List<String> gpus = f[3].equals("-") ? List.of() : Arrays.asList(f[3].split(","));
        starts.computeIfAbsent(Long.parseLong(f[1]), k -> new ArrayList<>()).add(new Start(Long.parseLong(f[2]), gpus));
        return;
      }
      if (f.length == 3 && f[0].equals("end")) {
        ends.computeIfAbsent(Long.parseLong(f[1]), k -> new ArrayList<>()).add(Long.parseLong(f[2]));
        return;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    malformed.add(line);
  }

  /** The ledger lines of one job, for a report. */
  List<String> linesOf(long id) {
    return lines.stream().filter(l -> {
      String[] f = l.split(" ");
      return f.length > 1 && f[1].equals(String.valueOf(id));
    }).toList();
  }
}
