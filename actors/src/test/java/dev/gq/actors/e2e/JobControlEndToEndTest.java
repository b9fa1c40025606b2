package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Priorities, the front of the queue, single-job holds and changes to waiting jobs, with the real
 * daemon, real jobs and one fake GPU; all of it survives a daemon restart.
 */
class JobControlEndToEndTest {
  private static final Duration T = Duration.ofSeconds(90);

  @TempDir Path tmp;

  @Test
  void priorityFrontHoldAndChangesDecideTheOrderAndSurviveARestart() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      Path go = tmp.resolve("go");
      long gate = g.submit("-g", "1", "bash", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done");
      g.awaitState(gate, "RUNNING", T);
      long a = g.submit("-g", "1", "true");
      long b = g.submit("-g", "1", "true");
      long c = g.submit("-g", "1", "--priority", "5", "true");
      long d = g.submit("-g", "1", "true");
      long e = g.submit("-g", "1", "bash", "-c", "echo \"X=${X-unset} HOME=${HOME-unset}\"");
      assertEquals(5, g.job(c).get("priority").asInt());
      assertEquals("Held job " + b + "; 'gq release " + b + "' lets it start.\n", g.gq("hold", String.valueOf(b)).out());
      Gqd.Result oldWord = g.gq("top", String.valueOf(d));
      assertEquals(2, oldWord.code(), oldWord.toString());
      assertTrue(oldWord.err().startsWith("gq: 'gq top' no longer moves a job: 'gq urgent " + d
          + "' moves it to the front of the queue\n"), oldWord.err());
      assertEquals(0, g.job(d).get("priority").asInt(), "the old word changed nothing");
      assertEquals("Job " + d + " is first in the queue (priority 6).\n", g.gq("urgent", String.valueOf(d)).out());
      Gqd.Result running = g.gq("modify", String.valueOf(gate), "--priority", "1");
      assertEquals(1, running.code(), running.toString());
      assertTrue(running.err().contains("only a waiting job can be changed"), running.err());
      g.stopDaemon();
      g.startDaemon();
      assertEquals(6, g.job(d).get("priority").asInt(), "the move survives a restart");
      assertTrue(g.gq("show", String.valueOf(b)).out().contains("gq release " + b), "the hold survives a restart");
      Gqd.Result changed = g.gq("modify", String.valueOf(a), "--gpus", "0");
      assertEquals("Job " + a + ": 0 GPU(s), priority 0, no time limit.\n", changed.out(), changed.toString());
      g.awaitState(a, "DONE", T); // CPU-only now: it need not wait for the GPU
      Gqd.Result env = g.gq("modify", String.valueOf(e), "--env", "X=hello", "--unset-env", "HOME");
      assertTrue(env.out().endsWith("environment: removed HOME, set X.\n"), env.toString());
      assertEquals("RUNNING", g.state(gate));
      Files.writeString(go, "");
      Instant dStart = Instant.parse(g.awaitState(d, "DONE", T).get("start_time").asText());
      Instant cStart = Instant.parse(g.awaitState(c, "DONE", T).get("start_time").asText());
      assertTrue(dStart.isBefore(cStart), "the job moved to the front started first");
      g.awaitState(e, "DONE", T);
      assertEquals("X=hello HOME=unset\n", Jobs.log(g, e), "the job ran with its changed environment");
      assertEquals("WAITING", g.state(b), "a held job does not start");
      assertEquals("Released job " + b + ".\n", g.gq("release", String.valueOf(b)).out());
      g.awaitState(b, "DONE", T);
    }
  }

  @Test
  void aJobWithABeginTimeWaitsSayingWhenAndThenStarts() throws Exception {
    try (Gqd g = Gqd.start(tmp, 1)) {
      long j = g.submit("-g", "1", "--begin", "3s", "true");
      var waiting = g.job(j);
      assertEquals("WAITING", waiting.get("state").asText());
      Instant begin = Instant.parse(waiting.get("begin_time").asText());
      Gqd.await("job " + j + " to say when it begins", T, () -> g.gq("ps").out().contains("begins in"));
      Instant started = Instant.parse(g.awaitState(j, "DONE", T).get("start_time").asText());
      assertFalse(started.isBefore(begin), "started " + started + ", before its begin time " + begin);
      assertEquals(2, g.gq("-g", "1", "--begin", "soon", "true").code(), "a bad --begin is a usage error");
    }
  }
}
