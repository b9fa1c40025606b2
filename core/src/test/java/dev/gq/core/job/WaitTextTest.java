package dev.gq.core.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.gpu.GpuState;
import dev.gq.core.job.WaitReason.Code;
import dev.gq.core.job.WaitReason.GpuBlock;
import dev.gq.core.job.WaitReason.GpuHolder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one renderer of wait reasons: every kind's brief and sentence, word for word as gq has always said them. */
class WaitTextTest {
  private static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z"); // a Monday
  private static final GpuNeed VRAM = GpuNeed.of(38200, List.of());
  private static final GpuNeed SHARED = GpuNeed.of(19046, List.of(), true, 0);

  private static GpuHolder job(int index, long job) {
    return new GpuHolder(index, GpuState.RUNNING, job, List.of(), null, List.of());
  }

  private static GpuHolder held(int index, GpuState state) {
    return new GpuHolder(index, state, null, List.of(), null, List.of());
  }

  private static final WaitReason.GpusBusy BUSY = new WaitReason.GpusBusy(2, 1, List.of(job(0, 4),
      held(2, GpuState.EXTERNAL), new GpuHolder(3, GpuState.SHARED, 7L, List.of(7L, 8L), null, List.of("bob's job 3")),
      held(4, GpuState.DRAINED), held(5, GpuState.UNKNOWN)));
  private static final WaitReason.BookedGpu IN_WINDOW = new WaitReason.BookedGpu("GPU-1", "bob", NOW.minusSeconds(3600),
      NOW.plusSeconds(7200), Duration.ofHours(2), true, NOW, ZoneOffset.UTC);
  private static final WaitReason.BookedGpu BEFORE = new WaitReason.BookedGpu("GPU-1", "bob", NOW.plusSeconds(3600),
      NOW.plusSeconds(7200), Duration.ofHours(2), true, NOW, ZoneOffset.UTC);

  /** Each kind: the reason, its brief, its whole sentence. */
  private static Map<WaitReason, List<String>> samples() {
    Map<WaitReason, List<String>> m = new LinkedHashMap<>();
    m.put(new WaitReason.Held(12), List.of("held", "held by the user; 'gq release 12' lets it start"));
    m.put(new WaitReason.QueueHeld(), List.of("queue held", "the queue is held; 'gq release --all' lets jobs start"));
    m.put(new WaitReason.GroupHeld("sweep", "held by the user"), List.of("group held", "group sweep is held: held by the user"));
    m.put(new WaitReason.After(7, false), List.of("after 7", "waiting for job 7 to end"));
    m.put(new WaitReason.After(7, true), List.of("after-ok 7", "waiting for job 7 to succeed"));
    m.put(new WaitReason.AfterFailed(7, JobState.FAILED), List.of("7 ended FAILED", "job 7, which had to succeed first, ended FAILED"));
    m.put(new WaitReason.AfterPreempted(7),
        List.of("7 preempted", "job 7 was preempted; this job waits for its resume ('gq resume 7')"));
    m.put(new WaitReason.Begins(NOW.plusSeconds(11400).plusMillis(300), NOW),
        List.of("begins in 3h10m", "may not start before 2026-03-02T13:10:00Z (--begin)"));
    m.put(new WaitReason.GroupAtMax("sweep", 2), List.of("group at max", "group sweep has its most jobs running at once (--max-running 2)"));
    m.put(new WaitReason.CpuJobsAtMax(), List.of("CPU jobs at max", "the most CPU-only jobs allowed at once already run (GQ_MAX_CPU_JOBS)"));
    m.put(new WaitReason.NoGpuReading(), List.of("no GPU reading", "waiting for the first GPU reading"));
    m.put(BUSY, List.of("GPUs busy", "needs 2 GPUs, 1 free (GPU 0: job 4; GPU 2: outside process; GPU 3: shared by jobs 7, 8 and"
        + " bob's job 3; GPU 4: drained; +1 more)"));
    m.put(new WaitReason.NoGpuFits(1, VRAM), List.of("no GPU fits", "needs 1 GPU with ≥ 37.3 GiB: no GPU here fits; see 'gq gpu'"));
    m.put(new WaitReason.TooFewFit(2, VRAM, List.of(3)), List.of("too few fit", "needs 2 GPUs with ≥ 37.3 GiB: only GPU 3 fits; see 'gq gpu'"));
    m.put(new WaitReason.FittingGpusBusy(1, VRAM, List.of(2, 3), 0, List.of(job(2, 4), job(3, 5))),
        List.of("fitting GPUs busy", "needs 1 GPU with ≥ 37.3 GiB: GPUs 2,3 fit, both busy (GPU 2: job 4; GPU 3: job 5)"));
    m.put(new WaitReason.SharedGpusFull(1, SHARED, List.of(new GpuBlock.NoRoom(0, 12288),
        new GpuBlock.Taken(1, job(1, 4), null), new GpuBlock.AtCap(2, 2, 2))),
        List.of("shared GPUs full", "needs 18.6 GiB on a shared GPU: GPU 0 has 12.0 GiB left; GPU 1: job 4; GPU 2 holds 2 shared jobs"
            + " (--per-gpu 2)"));
    m.put(new WaitReason.SharedGpusFull(2, SHARED, List.of(new GpuBlock.OverShare(0, 4, 20480, 19046))),
        List.of("over its share", "needs 18.6 GiB on each of 2 shared GPUs: GPU 0: job 4 uses 20.0 GiB of its 18.6 GiB, no more jobs go there"));
    m.put(new WaitReason.Gathering(new WaitReason.GpusBusy(4, 1, List.of(job(1, 2))), Duration.ofMinutes(5)),
        List.of("GPUs gather", "needs 4 GPUs, 1 free (GPU 1: job 2); GPUs gather for it (waiting over 5m): younger jobs wait"));
    m.put(new WaitReason.GatheringFor(3, 4, Duration.ofMinutes(5), List.of(0, 2)),
        List.of("gathering for 3", "GPUs gather for job 3 (needs 4 GPUs, waiting over 5m); GPUs 0,2 are kept free for it: younger jobs wait"));
    m.put(new WaitReason.FailFastCheck("sweep", 1),
        List.of("fail-fast check", "group sweep has 1 job starting or ending; more start once they are counted (fail-fast)"));
    m.put(IN_WINDOW, List.of("booked", "GPU GPU-1 is booked by bob from Mon 09:00 to Mon 12:00; only bob's jobs start on it until then"));
    m.put(new WaitReason.Booked(new WaitReason.GpusBusy(1, 0, List.of()), 1, BEFORE), List.of("booked", "needs 1 GPU, 0 free;"
        + " GPU 1 is free but booked by bob from Mon 11:00 to Mon 12:00; from 2h before, a job starts on it only with a --time"
        + " that ends by Mon 11:00 (this job has no --time)"));
    m.put(new WaitReason.InTurn(new WaitReason.FewerFree(2), List.of(new WaitReason.TurnGpu(1, "GPU-1", 20),
        new WaitReason.TurnGpu(null, "GPU-9", 75))), List.of("GPUs busy", "fewer GPUs free than the job needs; GPU 1 is free and waits"
        + " 20s more for another user's turn; GPU GPU-9 is free and waits 1m15s more for another user's turn"));
    m.put(new WaitReason.UserLimit("alice", 4, 4), List.of("user limit", "user limit: alice holds 4 GPUs and this machine allows 4"
        + " per user (max_gpus_per_user_always); it starts when one of alice's jobs ends"));
    m.put(new WaitReason.FairShare("alice", 4, 8, 2, List.of(new WaitReason.Wanting("bob", 2), new WaitReason.Wanting("carol", 1)),
        Duration.ofSeconds(30)), List.of("fair share", "fair share: bob waits for 2 GPUs, carol for 1 GPU; alice holds 4 of 8 (the"
        + " fair share is 2), so each GPU that frees up goes to bob or carol first for 30s, then to whoever takes it"));
    m.put(new WaitReason.StartFailed(3, "working directory /gone no longer exists", Duration.ofSeconds(4)),
        List.of("start failed 3x", "failed to start 3 times in a row (last: working directory /gone no longer exists); tries again in 4s"));
    m.put(new WaitReason.ToSlurm(), List.of("to Slurm", "about to be sent to the Slurm cluster"));
    m.put(new WaitReason.SlurmQueued("4411"), List.of("Slurm 4411", "queued on the Slurm cluster as job 4411 ('squeue -j 4411' says why)"));
    return m;
  }

  @Test
  void everyKindHasItsBriefAndItsSentence() {
    samples().forEach((r, words) -> {
      assertEquals(words.get(0), r.brief(), r.toString());
      assertEquals(words.get(1), r.text(), r.toString());
    });
  }

  @Test
  void everyCodeIsCoveredAndMatchesTheBrief() {
    Set<Code> seen = EnumSet.noneOf(Code.class);
    samples().keySet().forEach(r -> seen.add(r.code()));
    assertEquals(EnumSet.allOf(Code.class), seen);
    assertEquals(Code.GPUS_BUSY, new WaitReason.InTurn(BUSY, List.of()).code(), "a turn's GPUs keep the reason's code");
    assertEquals("gpus_busy", Code.GPUS_BUSY.key());
  }

  @Test
  void aListOfGpusNamesFourAndCountsTheRest() {
    assertTrue(BUSY.text().endsWith("; GPU 4: drained; +1 more)"), BUSY.text());
    assertEquals("GPU 0 does not fit", WaitText.block(new GpuBlock.Unfit(0)));
    assertEquals("GPU 1: drained (Xid 79)", WaitText.block(new GpuBlock.Taken(1, held(1, GpuState.SHARED), "drained (Xid 79)")));
    assertEquals("alice's job 3", WaitText.holder(new GpuHolder(0, GpuState.EXTERNAL, null, List.of(), "alice's job 3", List.of())));
  }

  @Test
  void aStartTimeReadsInTheLargestUnitThatFits() {
    assertEquals("in 59s", WaitText.in(NOW.plusSeconds(59), NOW));
    assertEquals("in 2m", WaitText.in(NOW.plusSeconds(61), NOW));
    assertEquals("in 5h", WaitText.in(NOW.plusSeconds(5 * 3600), NOW));
    assertEquals("in 3d", WaitText.in(NOW.plusSeconds(72 * 3600), NOW));
    assertEquals("in 0s", WaitText.in(NOW.minusSeconds(5), NOW));
  }
}
