package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq ps} with a queue longer than a page and than a terminal: in a pipe and as JSON the list
 * is whole and the very bytes the list read at once prints (its live jobs made from the daemon's
 * memory and their commands, page by page); on a terminal the running job and the newest waiting
 * ones that fit are shown, and a closing line says how many more wait.
 */
class PsLongQueueEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);
  private static final int BATCH = 1200;
  @TempDir Path tmp;

  @Test
  void aLongQueueIsWholeInAPipeAndCutToTheScreenOnATerminal() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path go = tmp.resolve("go");
      long gate = g.submit("-g", "1", "--name", "gate", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done");
      g.awaitState(gate, "RUNNING", T);
      assertEquals(0, g.gq("hold", "--all").code());
      StringBuilder sb = new StringBuilder();
      for (int i = 1; i <= BATCH; i++) sb.append("python train.py --cell ").append(i).append(i % 7 == 0 ? " 'it''s odd'" : "").append('\n');
      Path batch = Files.writeString(g.work.resolve("cells.txt"), sb);
      assertEquals(0, g.gq("submit", "--batch", batch.toString(), "-g", "1").code());

      // whole in a pipe: what the list read at once prints, but ELAPSED, which moves on between the two
      String[] columns = {"-o", "id,state,pos,priority,gpus,group,name,wait,exit,command"};
      assertEquals(g.gq(concat(columns, "ps", "--limit", "100000")).out(), g.gq(concat(columns, "ps")).out());
      Gqd.Result json = g.gq("ps", "--json");
      assertEquals(0, json.code(), json.toString());
      assertEquals(BATCH + 1, json.json().size());
      assertEquals(g.gq("ps", "--json", "--limit", "100000").out().replaceAll("\"start_time\": \"[^\"]*\"", ""),
          json.out().replaceAll("\"start_time\": \"[^\"]*\"", ""));

      // on a terminal of 30 lines: the header, the running job and 26 waiting ones, the closing line
      try (RawClient c = RawClient.run(g, List.of("ps"), true, 120, 30, false)) {
        RawClient.Reply r = c.read(false);
        assertEquals(0, r.code(), r.toString());
        List<String> lines = r.out().lines().toList();
        assertEquals(29, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("JOB"), r.out());
        List<String> ids = new ArrayList<>();
        for (String l : lines.subList(1, 28)) ids.add(l.split(" ")[0]);
        List<String> want = new ArrayList<>();
        for (long id = gate + BATCH; id > gate + BATCH - 26; id--) want.add(String.valueOf(id));
        want.add(String.valueOf(gate));
        assertEquals(want, ids, r.out());
        assertEquals("\u2026 1,174 more waiting jobs not shown: gq ps | less, or gq ps --json", lines.get(28));
      }
      Files.writeString(go, "");
    }
  }

  private static String[] concat(String[] columns, String... argv) {
    String[] out = new String[argv.length + columns.length];
    System.arraycopy(argv, 0, out, 0, argv.length);
    System.arraycopy(columns, 0, out, argv.length, columns.length);
    return out;
  }
}
