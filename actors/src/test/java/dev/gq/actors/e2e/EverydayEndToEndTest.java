package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user meets in the first hours, through the real daemon with one fake GPU: script arguments,
 * squeue's state names, the queue's order, a resume that resumes nothing, and a shell whose settings
 * the running daemon does not have.
 */
class EverydayEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void theQueueAsAUserSeesIt() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path script = Files.writeString(g.work.resolve("args.sh"), "#!/bin/bash\necho \"got $# args: $1|$2\"\n");
      long args = g.submit("submit", "-g", "0", script.toString(), "--lr", "3e-4");
      g.awaitState(args, "DONE", T);
      assertEquals("got 2 args: --lr|3e-4\n", g.gq("logs", String.valueOf(args)).out());

      Path go = tmp.resolve("go");
      long gate = g.submit("-g", "1", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done");
      g.awaitState(gate, "RUNNING", T);
      long low = g.submit("-g", "1", "true");
      long high = g.submit("-g", "1", "--priority", "5", "true");
      List<String> live = g.gq("ps", "-t", "R,PD", "--no-header", "-o", "id,pos,priority").out().lines()
          .map(l -> l.trim().replaceAll("\\s+", " ")).toList();
      assertEquals(List.of(high + " 1 5", low + " 2 0", gate + " - 0"), live);
      Gqd.Result typo = g.gq("ps", "--state", "RUNING");
      assertEquals(2, typo.code());
      assertTrue(typo.err().startsWith("gq: unknown state 'RUNING'; did you mean RUNNING?"), typo.err());

      Gqd.Result resume = g.gq("resume", String.valueOf(gate));
      assertEquals(1, resume.code(), resume.toString());
      assertTrue(resume.out().contains(gate + ": is RUNNING; only ended jobs are resumed"), resume.out());

      Map<String, String> shell = new HashMap<>(g.env());
      shell.put("GQ_FAKE_NVML", tmp.resolve("other-fake").toString());
      Gqd.Result noted = g.gqWith(g.work, shell, "ps");
      assertEquals(0, noted.code());
      assertTrue(noted.err().startsWith("gq: note: GQ_FAKE_NVML=" + tmp.resolve("other-fake") + " (the daemon's: " + g.fake + ")"),
          noted.err());
      assertFalse(g.gq("ps").err().contains("note:"), "the daemon's own settings say nothing");
      Files.writeString(go, "");
      g.awaitState(high, "DONE", T);
      g.awaitState(low, "DONE", T);
    }
  }
}
