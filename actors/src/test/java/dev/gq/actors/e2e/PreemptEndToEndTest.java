package dev.gq.actors.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gq preempt} and {@code gq resume} on the real daemon with one fake GPU and real jobs: a run
 * that traps SIGTERM, writes {@code checkpoint-150/trainer_state.json} and exits ends PREEMPTED; its
 * GPU goes to the job named with {@code --for}, ahead of an older job of higher priority; its resume
 * gets the checkpoint in its argv (HuggingFace's flag replaced, not doubled) and in
 * {@code GQ_RESUME_FROM}. A run that ignores the signal is stopped after the grace, and its reason
 * gives the age of its newest checkpoint. A daemon restart mid-preemption finishes it.
 */
class PreemptEndToEndTest {
  private static final Duration T = Duration.ofSeconds(60);

  /** Saves checkpoint-150 under --output_dir when asked to stop (SIGTERM to it alone), then exits 0. */
  static final String SAVES = "trap 'mkdir -p out/checkpoint-150 && echo {\\\"global_step\\\": 150, \\\"max_steps\\\": 1000} "
      + "> out/checkpoint-150/trainer_state.json; echo saved; exit 0' TERM; "
      + "echo \"args: $*\"; echo \"from: ${GQ_RESUME_FROM:-none}\"; while true; do sleep 0.1; done";

  @TempDir Path tmp;

  @Test
  void aPreemptedRunSavesHandsItsGpuToTheJobNamedAndResumesFromItsCheckpoint() throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1)) {
      long run = submitIn(g, work, "run", "-g", "1", "--name", "train", "--key", "lr=0.1",
          "bash", "-c", SAVES, "train", "--output_dir", "out", "--resume_from_checkpoint", "stale");
      g.awaitState(run, "RUNNING", T);
      long older = g.submit("run", "-g", "1", "--priority", "50", "true");
      long eval = g.submit("run", "-g", "1", "--name", "eval", "bash", "-c", "echo eval on $CUDA_VISIBLE_DEVICES; sleep 1");
      Gqd.Result p = g.gq("preempt", String.valueOf(run), "--for", String.valueOf(eval), "--grace", "30s");
      assertEquals(0, p.code(), p.toString());
      assertTrue(p.out().contains("its GPUs go to job " + eval), p.out());
      JsonNode ended = g.awaitState(run, "PREEMPTED", T);
      assertTrue(ended.get("failure_reason").asText().startsWith("preempted (SIGTERM)"), ended.toString());
      assertTrue(Files.isRegularFile(work.resolve("out/checkpoint-150/trainer_state.json")));
      assertTrue(Files.readString(g.data.resolve("logs/" + run + ".log")).contains("saved"));
      JsonNode e = g.awaitState(eval, "DONE", T);
      assertEquals(0, e.get("exit_code").asInt());
      g.awaitState(older, "DONE", T);
      assertTrue(java.time.Instant.parse(g.job(older).get("start_time").asText())
          .isAfter(java.time.Instant.parse(e.get("start_time").asText())), "eval started first");

      Gqd.Result again = g.gq("run", "-g", "1", "--key", "lr=0.1", "true");
      assertTrue(again.out().contains("PREEMPTED"), "its key stays its own: " + again);

      Gqd.Result r = g.gq("resume", String.valueOf(run));
      assertEquals(0, r.code(), r.toString());
      assertTrue(r.out().contains("resumes as job") && r.out().contains("checkpoint-150"), r.out());
      long resumed = newest(g, run);
      JsonNode attempt = g.awaitState(resumed, "RUNNING", T);
      assertEquals(run, attempt.get("retry_of").asLong());
      assertEquals("lr=0.1", attempt.get("key").asText());
      Path log = g.data.resolve("logs/" + resumed + ".log");
      String ckpt = work.resolve("out/checkpoint-150").toString();
      Gqd.await("the resumed run to print its arguments", T, () -> read(log).contains("from: "));
      String text = read(log);
      assertTrue(text.contains("gq: resuming from " + ckpt), text);
      assertTrue(text.contains("args: --output_dir out --resume_from_checkpoint " + ckpt + "\n"), "the flag replaced: " + text);
      assertTrue(text.contains("from: " + ckpt), text);
      g.gq("cancel", String.valueOf(resumed));
      g.awaitState(resumed, "CANCELLED", T);
    }
  }

  @Test
  void aRunThatIgnoresTheSignalIsStoppedAfterTheGraceWithTheAgeOfItsCheckpoint() throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    Files.createDirectories(work.resolve("checkpoint-20"));
    Files.writeString(work.resolve("checkpoint-20/trainer_state.json"), "{\"global_step\": 20}");
    Files.createDirectories(work.resolve("checkpoint-40")); // half-written: no trainer_state.json
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1)) {
      long run = submitIn(g, work, "run", "-g", "1", "bash", "-c", "trap 'echo ignored' TERM; while true; do sleep 0.1; done");
      g.awaitState(run, "RUNNING", T);
      assertEquals(0, g.gq("preempt", String.valueOf(run), "--grace", "1s").code());
      assertEquals("PREEMPTING", g.state(run));
      JsonNode ended = g.awaitState(run, "PREEMPTED", T);
      String why = ended.get("failure_reason").asText();
      assertTrue(why.contains("did not stop within 1s of SIGTERM") && why.contains("newest checkpoint checkpoint-20, saved"), why);
      Gqd.Result resume = g.gq("resume", String.valueOf(run));
      assertTrue(resume.out().contains(work.resolve("checkpoint-20").toString()), "the half-written checkpoint-40 is passed over: " + resume);
      g.gq("cancel", String.valueOf(newest(g, run)));
    }
  }

  @Test
  void aRestartMidPreemptionFinishesItAndTheFreedGpuStillGoesToTheJobNamed() throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1)) {
      // saving lasts until the test lets it finish: the daemon is stopped and started again meanwhile
      long run = submitIn(g, work, "run", "-g", "1", "bash", "-c",
          "trap 'touch asked; while [ ! -e gate ]; do sleep 0.05; done; mkdir -p checkpoint-7; "
              + "echo {} > checkpoint-7/trainer_state.json; exit 0' TERM; while true; do sleep 0.1; done");
      g.awaitState(run, "RUNNING", T);
      long waiting = g.submit("run", "-g", "1", "true");
      long eval = g.submit("run", "-g", "1", "true");
      assertEquals(0, g.gq("preempt", String.valueOf(run), "--for", String.valueOf(eval), "--requeue", "--grace", "60s").code());
      Gqd.await("the run to be asked to save", T, () -> Files.exists(work.resolve("asked")));
      g.stopDaemon();
      g.startDaemon();
      assertEquals("PREEMPTING", g.state(run));
      Files.writeString(work.resolve("gate"), "saved");
      g.awaitState(run, "PREEMPTED", T);
      JsonNode e = g.awaitState(eval, "DONE", T);
      g.awaitState(waiting, "DONE", T);
      assertTrue(java.time.Instant.parse(g.job(waiting).get("start_time").asText())
          .isAfter(java.time.Instant.parse(e.get("start_time").asText())), "the job named got the GPU first");
      long resumed = newest(g, run);
      JsonNode attempt = g.job(resumed);
      assertEquals(run, attempt.get("retry_of").asLong(), "--requeue queued the resume");
      assertEquals("newest", attempt.get("resume_from").asText());
      g.awaitState(resumed, "RUNNING", T);
      Gqd.await("its log to name the checkpoint", T, () -> read(g.data.resolve("logs/" + resumed + ".log"))
          .contains("gq: resuming from " + work.resolve("checkpoint-7")));
      g.gq("cancel", String.valueOf(resumed));
    }
  }

  @Test
  void theJobNamedGetsTheGpuOnlyOnceADetachedChildOfThePreemptedRunIsGoneToo() throws Exception {
    Path work = Files.createDirectories(tmp.resolve("work"));
    try (Gqd g = Gqd.start(tmp.resolve("gq"), 1)) {
      // a child that left the job's session keeps a CUDA context open for 2 s after the main process has saved and exited
      String ctx = "for u in ${GQ_GPU_UUIDS//,/ }; do echo 100 > \"$GQ_FAKE_NVML/procs/$u/$$\"; done";
      String unctx = "for u in ${GQ_GPU_UUIDS//,/ }; do rm -f \"$GQ_FAKE_NVML/procs/$u/$$\"; done";
      long run = submitIn(g, work, "run", "-g", "1", "bash", "-c",
          "setsid bash -c 'trap \"\" TERM; " + ctx + "; while [ ! -e saved ]; do sleep 0.05; done; sleep 2; " + unctx
              + "; echo $(( ${EPOCHREALTIME/./} / 1000 )) > child-ended' & "
              + "trap 'touch saved; exit 0' TERM; while true; do sleep 0.1; done");
      g.awaitState(run, "RUNNING", T);
      Gqd.await("the detached child's context", T, () -> g.gpus().get(0).get("processes").size() > 0);
      long eval = g.submit("run", "-g", "1", "true");
      assertEquals(0, g.gq("preempt", String.valueOf(run), "--for", String.valueOf(eval)).code());
      JsonNode e = g.awaitState(eval, "DONE", T);
      long childEnded = Long.parseLong(Files.readString(work.resolve("child-ended")).trim());
      long evalStarted = java.time.Instant.parse(e.get("start_time").asText()).toEpochMilli();
      assertTrue(evalStarted >= childEnded, "the GPU went to job " + eval + " at " + evalStarted
          + " while the preempted run's child held it until " + childEnded);
      assertEquals("PREEMPTED", g.state(run));
    }
  }

  private static long submitIn(Gqd g, Path cwd, String... argv) {
    Gqd.Result r = g.gqIn(cwd, argv);
    if (r.code() != 0) throw new AssertionError("submit failed: " + r);
    String s = r.out().strip();
    return Long.parseLong(s.substring(s.lastIndexOf(' ') + 1));
  }

  /** The newest attempt of {@code id}'s lineage. */
  private static long newest(Gqd g, long id) {
    JsonNode all = g.gq("ps", "-a", "--json").json();
    long best = id;
    for (JsonNode j : all) if (j.get("retry_of").asLong(-1) == id) best = Math.max(best, j.get("id").asLong());
    return best;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      return "";
    }
  }
}
