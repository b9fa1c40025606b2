package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import dev.gq.core.progress.Estimate;
import dev.gq.core.progress.Source;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProgressRequestsTest {
  @TempDir Path dir;

  private Job running(long id, Path log, Path cwd, String... argv) {
    JobSpec spec = new JobSpec(List.of(argv), cwd.toString(), Map.of(), 1, null, null, null);
    return new Job(id, spec, JobState.RUNNING, Instant.EPOCH, Instant.EPOCH, null, List.of(), null, null,
        log == null ? null : log.toString(), null, "tag", null);
  }

  private ProgressRequests requests() throws Exception {
    Files.createDirectories(dir.resolve("run"));
    return new ProgressRequests(dir.resolve("run"), Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
  }

  @Test
  void theProgressFileWinsOverTheLog() throws Exception {
    ProgressRequests p = requests();
    Path log = Files.writeString(dir.resolve("7.log"), "Step 10/100\n");
    Files.writeString(dir.resolve("run/7.progress"), "30 60\n");
    Estimate e = p.estimates(List.of(7L), List.of(running(7, log, dir, "train"))).get(7L);
    assertEquals(Source.PROGRESS_FILE, e.source());
    assertEquals(30, e.current());
    assertEquals(60, e.total());
  }

  @Test
  void aTqdmBarInTheLogsTailIsRead() throws Exception {
    ProgressRequests p = requests();
    Path log = Files.writeString(dir.resolve("8.log"),
        " 10%|#         | 10/100 [00:01<00:09,  9.80it/s]\r 20%|##        | 20/100 [00:02<00:08,  9.90it/s]");
    Estimate e = p.estimates(List.of(8L), List.of(running(8, log, dir, "train"))).get(8L);
    assertEquals(Source.TQDM, e.source());
    assertEquals(20, e.current());
    assertEquals(100, e.total());
  }

  @Test
  void aLinkInPlaceOfTheLogIsNotFollowed() throws Exception {
    ProgressRequests p = requests();
    Path target = Files.writeString(dir.resolve("elsewhere"), "Step 10/100\n");
    Path log = Files.createSymbolicLink(dir.resolve("9.log"), target);
    assertTrue(p.estimates(List.of(9L), List.of(running(9, log, dir, "train"))).isEmpty());
  }

  @Test
  void theNewestCompleteCheckpointUnderTheOutputDirIsRead() throws Exception {
    ProgressRequests p = requests();
    Path out = Files.createDirectories(dir.resolve("out"));
    Files.createDirectories(out.resolve("checkpoint-100"));
    Files.writeString(out.resolve("checkpoint-100/trainer_state.json"), "{\"global_step\": 100, \"max_steps\": 400}");
    Files.createDirectories(out.resolve("checkpoint-200"));
    Files.writeString(out.resolve("checkpoint-200/trainer_state.json"), "{\"global_step\": 200, \"max_ste");
    Path log = Files.writeString(dir.resolve("10.log"), "loading\n");
    Estimate e = p.estimates(List.of(10L), List.of(running(10, log, dir, "python", "t.py", "--output_dir", "out"))).get(10L);
    assertEquals(Source.CHECKPOINT, e.source());
    assertEquals(100, e.current());
    Files.writeString(out.resolve("checkpoint-200/trainer_state.json"), "{\"global_step\": 200, \"max_steps\": 400}");
    Estimate later = p.estimates(List.of(10L), List.of(running(10, log, dir, "python", "t.py", "--output-dir=out"))).get(10L);
    assertEquals(200, later.current());
  }

  @Test
  void anOutputDirThatIsALinkIsListedButALinkedStateIsNotRead() throws Exception {
    ProgressRequests p = requests();
    Path scratch = Files.createDirectories(dir.resolve("scratch/checkpoint-5"));
    Files.writeString(scratch.resolve("trainer_state.json"), "{\"global_step\": 5, \"max_steps\": 50}");
    Files.createSymbolicLink(dir.resolve("out"), dir.resolve("scratch"));
    Path log = Files.writeString(dir.resolve("12.log"), "loading\n");
    Job j = running(12, log, dir, "train", "--output_dir", "out");
    assertEquals(5, p.estimates(List.of(12L), List.of(j)).get(12L).current());
    Path other = Files.createDirectories(dir.resolve("other/checkpoint-7"));
    Files.createSymbolicLink(other.resolve("trainer_state.json"), scratch.resolve("trainer_state.json"));
    Job k = running(13, log, dir, "train", "--output_dir", "other");
    assertTrue(p.estimates(List.of(13L), List.of(k)).isEmpty());
  }

  @Test
  void theRateComesFromTwoReadingsAndIsForgottenWithTheJob() throws Exception {
    Files.createDirectories(dir.resolve("run"));
    java.util.concurrent.atomic.AtomicReference<Instant> now = new java.util.concurrent.atomic.AtomicReference<>(Instant.EPOCH);
    Clock clock = new Clock() {
      @Override public java.time.ZoneId getZone() { return ZoneOffset.UTC; }
      @Override public Clock withZone(java.time.ZoneId z) { return this; }
      @Override public Instant instant() { return now.get(); }
    };
    ProgressRequests p = new ProgressRequests(dir.resolve("run"), clock);
    Path log = Files.writeString(dir.resolve("14.log"), "Step 9000/10000\n");
    Job j = running(14, log, dir, "train");
    Estimate first = p.estimates(List.of(14L), List.of(j)).get(14L);
    assertTrue(Double.isNaN(first.ratePerSecond()) && first.remaining() == null, "no rate from one reading: " + first);
    now.set(Instant.EPOCH.plusSeconds(100));
    Files.writeString(log, "Step 9000/10000\nStep 9100/10000\n");
    Estimate second = p.estimates(List.of(14L), List.of(j)).get(14L);
    assertEquals(1.0, second.ratePerSecond(), 1e-9);
    assertEquals(java.time.Duration.ofSeconds(900), second.remaining());
    p.estimates(List.of(), List.of());
    now.set(Instant.EPOCH.plusSeconds(200));
    Files.writeString(log, "Step 9000/10000\nStep 9100/10000\nStep 9200/10000\n");
    assertTrue(Double.isNaN(p.estimates(List.of(14L), List.of(j)).get(14L).ratePerSecond()), "forgotten once not running");
  }

  @Test
  void onlyAskedRunningJobsAreRead() throws Exception {
    ProgressRequests p = requests();
    Path log = Files.writeString(dir.resolve("11.log"), "Step 10/100\n");
    Job j = running(11, log, dir, "train");
    assertTrue(p.estimates(List.of(12L), List.of(j)).isEmpty());
    assertTrue(p.estimates(List.of(11L), List.of()).isEmpty());
    assertTrue(p.estimates(List.of(11L), List.of(j)).containsKey(11L));
  }

  @Test
  void anUnchangedJobIsAnsweredFromStatsAndItsDirectoryListedOnlyWhenItsTimeMoves() throws Exception {
    Files.createDirectories(dir.resolve("run"));
    java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
    // a minute ahead: every file's time is older than the window in which a directory is listed again
    Clock ahead = Clock.offset(Clock.systemUTC(), java.time.Duration.ofMinutes(1));
    ProgressRequests p = new ProgressRequests(dir.resolve("run"), ahead, (d, max) -> {
      listings.incrementAndGet();
      return ProgressRequests.list(d, max);
    });
    Path out = Files.createDirectories(dir.resolve("out/checkpoint-100"));
    Files.writeString(out.resolve("trainer_state.json"), "{\"global_step\": 100, \"max_steps\": 400}");
    Path log = Files.writeString(dir.resolve("15.log"), "loading\n");
    Job j = running(15, log, dir, "train", "--output_dir", "out");
    for (int i = 0; i < 3; i++) assertEquals(100, p.estimates(List.of(15L), List.of(j)).get(15L).current());
    assertEquals(1, listings.get(), "an unchanged job is answered without listing its directory");
    Files.writeString(log, "loading\nstill loading\n");
    assertEquals(100, p.estimates(List.of(15L), List.of(j)).get(15L).current());
    assertEquals(1, listings.get(), "a grown log is read again; the directory, unchanged, is not listed");
    Path next = Files.createDirectories(dir.resolve("out/checkpoint-200"));
    Files.writeString(next.resolve("trainer_state.json"), "{\"global_step\": 200, \"max_steps\": 400}");
    assertEquals(200, p.estimates(List.of(15L), List.of(j)).get(15L).current());
    assertEquals(2, listings.get(), "a new checkpoint-N changes its parent's time: listed once more");
  }

  @Test
  void aDirectoryThatChangedTooRecentlyToTrustItsTimeIsListedAgain() throws Exception {
    Files.createDirectories(dir.resolve("run"));
    Path out = Files.createDirectories(dir.resolve("out"));
    Path log = Files.writeString(dir.resolve("16.log"), "loading\n");
    java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
    // read at the very moment the directory last changed: a checkpoint made in the same tick would not move its time
    Clock atChange = Clock.fixed(Files.getLastModifiedTime(out).toInstant(), ZoneOffset.UTC);
    ProgressRequests p = new ProgressRequests(dir.resolve("run"), atChange, (d, max) -> {
      listings.incrementAndGet();
      return ProgressRequests.list(d, max);
    });
    Job j = running(16, log, dir, "train", "--output_dir", "out");
    p.estimates(List.of(16L), List.of(j));
    p.estimates(List.of(16L), List.of(j));
    assertEquals(2, listings.get());
  }

  @Test
  void aLogThatGrewIsParsedFromWhereTheLastReadingStoppedNotWholeAgain() throws Exception {
    ProgressRequests p = requests();
    StringBuilder bars = new StringBuilder();
    for (int i = 1; i <= 1000; i++) bars.append(String.format("\rtrain: %3d%%|#  | %d/5000 [00:%02d<09:00,  9.00it/s]", i / 50, i, i % 60));
    Path log = Files.writeString(dir.resolve("17.log"), bars);
    Job j = running(17, log, dir, "train");
    assertEquals(1000, p.estimates(List.of(17L), List.of(j)).get(17L).current());
    // change a line the first reading parsed, in place, then append one: only the appended line is parsed
    String text = Files.readString(log);
    int at = text.indexOf("train:  10%|#  | 500/5000");
    String bigger = "valid:  10%|#  | 500/9999";
    Files.writeString(log, text.substring(0, at) + bigger + text.substring(at + bigger.length())
        + "\rtrain:  20%|#  | 1001/5000 [00:41<09:00,  9.00it/s]");
    Estimate e = p.estimates(List.of(17L), List.of(j)).get(17L);
    assertEquals(1001, e.current());
    assertEquals(5000, e.total(), "a whole read would have taken the larger bar written over an old line");
  }
}
