package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Caps on what runs at once, with the real daemon and real jobs. */
class LimitsEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void noMoreCpuOnlyJobsRunAtOnceThanTheCapAndTheOthersSayWhy() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1, Map.of("GQ_MAX_CPU_JOBS", "2"))) {
      Path go = tmp.resolve("go");
      List<Long> ids = new ArrayList<>();
      for (int i = 0; i < 4; i++)
        ids.add(g.submit("-g", "0", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done"));
      g.awaitState(ids.get(0), "RUNNING", T);
      g.awaitState(ids.get(1), "RUNNING", T);
      Gqd.await("job " + ids.get(2) + " to say why it waits", T,
          () -> g.gq("show", String.valueOf(ids.get(2))).out().contains("GQ_MAX_CPU_JOBS"));
      assertEquals("WAITING", g.state(ids.get(2)));
      assertEquals("WAITING", g.state(ids.get(3)));
      Files.writeString(go, "");
      for (long id : ids) g.awaitState(id, "DONE", T);
    }
  }
}
